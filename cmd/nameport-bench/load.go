package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

type headerFlags []string

func (h *headerFlags) String() string     { return strings.Join(*h, ", ") }
func (h *headerFlags) Set(v string) error { *h = append(*h, v); return nil }

// runLoad keeps C requests in flight for the duration (each client sends its
// next request when the last one is answered) and reports the rate of
// answered requests and their latency percentiles. Only 2xx answers count
// as ok (or only the -ok status, with -location the Location given);
// anything else is an error and is reported, never hidden. Redirects are
// answers, never followed.
func runLoad(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	url := fs.String("url", "", "request URL; {n} becomes a unique number")
	method := fs.String("method", http.MethodGet, "HTTP method")
	body := fs.String("body", "", "request body; {n} becomes a unique number")
	clients := fs.Int("c", 32, "concurrent clients")
	duration := fs.Duration("d", 10*time.Second, "how long to send")
	warmup := fs.Duration("warmup", time.Second, "requests sent first and not counted")
	okStatus := fs.Int("ok", 0, "the status that counts as ok (0: any 2xx)")
	location := fs.String("location", "", "the Location every answer must have (empty: not checked)")
	host := fs.String("host", "", "Host header and TLS server name (SNI) to send (empty: the URL's)")
	insecure := fs.Bool("insecure", false, "do not verify the server's TLS certificate")
	caFile := fs.String("cacert", "", "PEM file of the roots to verify the server's TLS certificate with (empty: the system's)")
	var headers headerFlags
	fs.Var(&headers, "H", "header 'Name: value' (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	tlsConfig := &tls.Config{ServerName: *host, InsecureSkipVerify: *insecure}
	if *caFile != "" {
		pem, err := os.ReadFile(*caFile)
		if err != nil {
			return fmt.Errorf("load: %w", err)
		}
		tlsConfig.RootCAs = x509.NewCertPool()
		if !tlsConfig.RootCAs.AppendCertsFromPEM(pem) {
			return fmt.Errorf("load: no PEM certificate in %s", *caFile)
		}
	}
	if *url == "" {
		return fmt.Errorf("load: -url is required")
	}
	hdr := http.Header{}
	for _, h := range headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok {
			return fmt.Errorf("load: header %q is not 'Name: value'", h)
		}
		hdr.Add(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	if *body != "" && hdr.Get("Content-Type") == "" {
		hdr.Set("Content-Type", "application/json")
	}

	// HTTP/1.1 over TLS too (a Transport with its own TLS config does not
	// try HTTP/2): one connection per client, as over plain HTTP.
	client := &http.Client{Transport: &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		TLSClientConfig:     tlsConfig,
		MaxIdleConnsPerHost: *clients, MaxConnsPerHost: *clients, DisableCompression: true,
	}, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	ok := func(res *http.Response) string {
		switch {
		case *okStatus == 0 && (res.StatusCode < 200 || res.StatusCode > 299),
			*okStatus != 0 && res.StatusCode != *okStatus:
			return "HTTP " + strconv.Itoa(res.StatusCode)
		case *location != "" && res.Header.Get("Location") != *location:
			return "wrong Location"
		}
		return ""
	}

	var seq atomic.Int64
	// send sends one request and returns what was wrong with its answer
	// ("" when it is ok).
	send := func() string {
		n := strconv.FormatInt(seq.Add(1), 10)
		var rd io.Reader
		if *body != "" {
			rd = strings.NewReader(strings.ReplaceAll(*body, "{n}", n))
		}
		req, err := http.NewRequestWithContext(ctx, *method, strings.ReplaceAll(*url, "{n}", n), rd)
		if err != nil {
			return errorKind(err)
		}
		req.Header = hdr.Clone()
		req.Host = *host
		res, err := client.Do(req)
		if err != nil {
			return errorKind(err)
		}
		defer res.Body.Close()
		if _, err := io.Copy(io.Discard, res.Body); err != nil {
			return errorKind(err)
		}
		return ok(res)
	}

	type result struct {
		latencies []time.Duration
		errors    map[string]int
	}
	loop := func(until time.Time, counted bool) []result {
		results := make([]result, *clients)
		var wg sync.WaitGroup
		for i := range results {
			wg.Add(1)
			go func(r *result) {
				defer wg.Done()
				r.errors = map[string]int{}
				for time.Now().Before(until) && ctx.Err() == nil {
					start := time.Now()
					switch wrong := send(); {
					case wrong != "":
						r.errors[wrong]++
					case counted:
						r.latencies = append(r.latencies, time.Since(start))
					}
				}
			}(&results[i])
		}
		wg.Wait()
		return results
	}

	loop(time.Now().Add(*warmup), false)
	start := time.Now()
	results := loop(start.Add(*duration), true)
	elapsed := time.Since(start)
	if err := ctx.Err(); err != nil {
		return err
	}

	var all []time.Duration
	errs := map[string]int{}
	nerr := 0
	for _, r := range results {
		all = append(all, r.latencies...)
		for k, v := range r.errors {
			errs[k] += v
			nerr += v
		}
	}
	slices.Sort(all)
	pct := func(p float64) float64 {
		if len(all) == 0 {
			return 0
		}
		return float64(all[min(len(all)-1, int(p*float64(len(all))))].Microseconds()) / 1000
	}
	line := fmt.Sprintf("requests=%d ok=%d errors=%d rps=%.0f p50_ms=%.2f p99_ms=%.2f",
		len(all)+nerr, len(all), nerr, float64(len(all))/elapsed.Seconds(), pct(0.50), pct(0.99))
	if nerr > 0 {
		kinds := make([]string, 0, len(errs))
		for k, v := range errs {
			kinds = append(kinds, fmt.Sprintf("%s×%d", k, v))
		}
		slices.Sort(kinds)
		line += " error_kinds=" + strings.ReplaceAll(strings.Join(kinds, ","), " ", "_")
	}
	fmt.Println(line)
	return nil
}

func errorKind(err error) string {
	var ne net.Error
	var badCert *tls.CertificateVerificationError
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "refused"
	case errors.As(err, &badCert):
		return "certificate not trusted"
	}
	return "network"
}
