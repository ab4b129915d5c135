package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
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
// as ok; anything else is an error and is reported, never hidden.
func runLoad(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	url := fs.String("url", "", "request URL; {n} becomes a unique number")
	method := fs.String("method", http.MethodGet, "HTTP method")
	body := fs.String("body", "", "request body; {n} becomes a unique number")
	clients := fs.Int("c", 32, "concurrent clients")
	duration := fs.Duration("d", 10*time.Second, "how long to send")
	warmup := fs.Duration("warmup", time.Second, "requests sent first and not counted")
	var headers headerFlags
	fs.Var(&headers, "H", "header 'Name: value' (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
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

	client := &http.Client{Transport: &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConnsPerHost: *clients, MaxConnsPerHost: *clients, DisableCompression: true,
	}, Timeout: 30 * time.Second}

	var seq atomic.Int64
	send := func() (int, error) {
		n := strconv.FormatInt(seq.Add(1), 10)
		var rd io.Reader
		if *body != "" {
			rd = strings.NewReader(strings.ReplaceAll(*body, "{n}", n))
		}
		req, err := http.NewRequestWithContext(ctx, *method, strings.ReplaceAll(*url, "{n}", n), rd)
		if err != nil {
			return 0, err
		}
		req.Header = hdr.Clone()
		res, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		defer res.Body.Close()
		_, err = io.Copy(io.Discard, res.Body)
		return res.StatusCode, err
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
					status, err := send()
					switch {
					case err != nil:
						r.errors[errorKind(err)]++
					case status < 200 || status > 299:
						r.errors["HTTP "+strconv.Itoa(status)]++
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
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "refused"
	}
	return "network"
}
