package server

import (
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/connlimit"
	"github.com/nameport/nameport/internal/dnsserver"
	"github.com/nameport/nameport/internal/domainfwd"
	"github.com/nameport/nameport/internal/mailfwd"
)

// metrics are the Prometheus metrics of one process.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newMetrics(conns ...connSource) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "nameport_http_requests_total", Help: "HTTP requests by route and status code.",
		}, []string{"method", "route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "nameport_http_request_duration_seconds", Help: "HTTP request latency by route.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"method", "route"}),
	}
	m.registry.MustRegister(m.requests, m.duration, dnsRateLimitCollector{}, mailCollector{}, forwardCollector{}, connCollector(conns),
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// middleware records each request under its route pattern (not its raw path,
// which would make one series per domain id).
func (m *metrics) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		// accessLog's wrapper, when it runs first, already counts.
		ww, ok := w.(middleware.WrapResponseWriter)
		if !ok {
			ww = middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		}
		next.ServeHTTP(ww, r)
		route := "other"
		if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
			route = rc.RoutePattern()
		}
		m.requests.WithLabelValues(r.Method, route, strconv.Itoa(ww.Status())).Inc()
		m.duration.WithLabelValues(r.Method, route).Observe(time.Since(start).Seconds())
	})
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

var (
	mailMessagesDesc = prometheus.NewDesc("nameport_mail_messages_total",
		"Email forwarding: messages accepted by the mail role, and deliveries forwarded, deferred (to be retried) and failed, and bounces sent for those that failed.",
		[]string{"outcome"}, nil)
	mailRefusedDesc = prometheus.NewDesc("nameport_mail_refused_total",
		"Email forwarding: SMTP commands refused, by reason (relay, unknown, syntax, size, recipients, sender, rate).",
		[]string{"reason"}, nil)
)

// mailCollector reads email forwarding's counts at scrape time.
type mailCollector struct{}

func (mailCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- mailMessagesDesc
	ch <- mailRefusedDesc
}

func (mailCollector) Collect(ch chan<- prometheus.Metric) {
	t := mailfwd.Totals()
	for outcome, n := range map[string]uint64{"accepted": t.Accepted, "forwarded": t.Forwarded, "deferred": t.Deferred, "failed": t.Failed, "bounced": t.Bounced} {
		ch <- prometheus.MustNewConstMetric(mailMessagesDesc, prometheus.CounterValue, float64(n), outcome)
	}
	for reason, n := range t.Refused {
		ch <- prometheus.MustNewConstMetric(mailRefusedDesc, prometheus.CounterValue, float64(n), reason)
	}
}

var (
	forwardRequestsDesc = prometheus.NewDesc("nameport_forward_requests_total",
		"Domain forwarding: requests answered by the forward role, by status (301, 302, 307, 308 redirects; 404 for a host without a rule).",
		[]string{"status"}, nil)
	forwardCertificatesDesc = prometheus.NewDesc("nameport_forward_certificates_total",
		"Domain forwarding: certificates obtained from the ACME CA (issued, renewals included; renewed among them) and attempts that failed.",
		[]string{"outcome"}, nil)
)

// forwardCollector reads domain forwarding's counts at scrape time.
type forwardCollector struct{}

func (forwardCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- forwardRequestsDesc
	ch <- forwardCertificatesDesc
}

func (forwardCollector) Collect(ch chan<- prometheus.Metric) {
	t := domainfwd.Totals()
	for status, n := range t.Redirects {
		ch <- prometheus.MustNewConstMetric(forwardRequestsDesc, prometheus.CounterValue, float64(n), strconv.Itoa(status))
	}
	ch <- prometheus.MustNewConstMetric(forwardRequestsDesc, prometheus.CounterValue, float64(t.NotFound), "404")
	for outcome, n := range map[string]uint64{"issued": t.CertificatesIssued, "renewed": t.CertificatesRenewed, "failed": t.CertificateFailures} {
		ch <- prometheus.MustNewConstMetric(forwardCertificatesDesc, prometheus.CounterValue, float64(n), outcome)
	}
}

var dnsRateLimitedDesc = prometheus.NewDesc("nameport_dns_rrl_responses_total",
	"DNS responses over UDP that response rate limiting dropped or sent truncated (slipped), by kind.",
	[]string{"kind", "action"}, nil)

// dnsRateLimitCollector reads the DNS server's rate limiting counts at
// scrape time, so that the packet path only bumps an atomic counter.
type dnsRateLimitCollector struct{}

func (dnsRateLimitCollector) Describe(ch chan<- *prometheus.Desc) { ch <- dnsRateLimitedDesc }

func (dnsRateLimitCollector) Collect(ch chan<- prometheus.Metric) {
	for _, c := range dnsserver.RateLimitedTotals() {
		ch <- prometheus.MustNewConstMetric(dnsRateLimitedDesc, prometheus.CounterValue, float64(c.Dropped), c.Kind, "dropped")
		ch <- prometheus.MustNewConstMetric(dnsRateLimitedDesc, prometheus.CounterValue, float64(c.Slipped), c.Kind, "slipped")
	}
}

// connSource is a listener whose connections are counted.
type connSource struct {
	name  string // "http", "dns_tcp"
	stats func() connlimit.Stats
}

var (
	connsOpenDesc = prometheus.NewDesc("nameport_connections_open",
		"TCP connections open, by listener.", []string{"listener"}, nil)
	connsRefusedDesc = prometheus.NewDesc("nameport_connections_refused_total",
		"TCP connections closed at accept because a connection budget was spent, by listener and budget (total, per_client).",
		[]string{"listener", "reason"}, nil)
)

// connCollector reads the listeners' counts at scrape time.
type connCollector []connSource

func (connCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- connsOpenDesc
	ch <- connsRefusedDesc
}

func (c connCollector) Collect(ch chan<- prometheus.Metric) {
	for _, src := range c {
		st := src.stats()
		ch <- prometheus.MustNewConstMetric(connsOpenDesc, prometheus.GaugeValue, float64(st.Open), src.name)
		ch <- prometheus.MustNewConstMetric(connsRefusedDesc, prometheus.CounterValue, float64(st.RefusedTotal), src.name, "total")
		ch <- prometheus.MustNewConstMetric(connsRefusedDesc, prometheus.CounterValue, float64(st.RefusedPerClient), src.name, "per_client")
	}
}

var (
	hashInFlightDesc = prometheus.NewDesc("nameport_password_hashes_in_flight",
		"Password hashes (argon2id) running now.", nil, nil)
	hashPeakDesc = prometheus.NewDesc("nameport_password_hashes_peak",
		"The most password hashes that ever ran at once; never above --password-hash-concurrency.", nil, nil)
	hashLimitDesc = prometheus.NewDesc("nameport_password_hashes_limit",
		"How many password hashes may run at once (--password-hash-concurrency).", nil, nil)
	hashTotalDesc = prometheus.NewDesc("nameport_password_hashes_total",
		"Password hashes run (hashing and verifying).", nil, nil)
	hashRefusedDesc = prometheus.NewDesc("nameport_password_hashes_refused_total",
		"Requests answered 503 because no place in the password hash pool came free in time.", nil, nil)
)

// hashPoolCollector reads the password hash pool's counts at scrape time.
type hashPoolCollector struct{ accounts *account.Service }

func (hashPoolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{hashInFlightDesc, hashPeakDesc, hashLimitDesc, hashTotalDesc, hashRefusedDesc} {
		ch <- d
	}
}

func (c hashPoolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.accounts.HashStats()
	ch <- prometheus.MustNewConstMetric(hashInFlightDesc, prometheus.GaugeValue, float64(s.InFlight))
	ch <- prometheus.MustNewConstMetric(hashPeakDesc, prometheus.GaugeValue, float64(s.Peak))
	ch <- prometheus.MustNewConstMetric(hashLimitDesc, prometheus.GaugeValue, float64(s.Limit))
	ch <- prometheus.MustNewConstMetric(hashTotalDesc, prometheus.CounterValue, float64(s.Total))
	ch <- prometheus.MustNewConstMetric(hashRefusedDesc, prometheus.CounterValue, float64(s.Refused))
}
