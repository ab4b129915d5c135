package server

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/nameport/nameport/internal/requestlog"
)

var requestLogEntriesDesc = prometheus.NewDesc("nameport_request_log_entries_total",
	"The registrar request log of /v1: entries written, dropped (the queue to the writer was full, so the request did not wait) and failed (their batch was refused by the database).",
	[]string{"outcome"}, nil)

// requestLogCollector reads the request log recorder's counts at scrape
// time.
type requestLogCollector struct{ logs *requestlog.Service }

func (requestLogCollector) Describe(ch chan<- *prometheus.Desc) { ch <- requestLogEntriesDesc }

func (c requestLogCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.logs.Stats()
	for outcome, n := range map[string]uint64{"written": s.Written, "dropped": s.Dropped, "failed": s.Failed} {
		ch <- prometheus.MustNewConstMetric(requestLogEntriesDesc, prometheus.CounterValue, float64(n), outcome)
	}
}
