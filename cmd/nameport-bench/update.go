package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/miekg/dns"
)

// runUpdate measures RFC 2136 dynamic updates (issue #22): it registers a
// domain for the registrar whose API key it is given, makes an update key
// for it, then sends signed updates from -c clients for -d, each replacing
// the one TXT record of a name (one record changed, as the bench's /v1
// comparison does with PUT .../records), and prints the load line (rps,
// p99). It prints the domain first, on a line of its own, for the /v1 run.
func runUpdate(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("update", flag.ContinueOnError)
	base := fs.String("url", "", "server URL")
	apiKey := fs.String("key", "", "a registrar's API key")
	server := fs.String("dns", "", "the server's DNS address")
	domain := fs.String("domain", "updbench.inf.nz", "the domain to register and update")
	clients := fs.Int("c", 8, "concurrent clients")
	duration := fs.Duration("d", 10*time.Second, "how long to send")
	if err := fs.Parse(args); err != nil {
		return err
	}
	call := func(method, path string, body, out any) error {
		b, _ := json.Marshal(body)
		req, err := http.NewRequestWithContext(ctx, method, *base+path, bytes.NewReader(b))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-Key", *apiKey)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		if res.StatusCode > 299 {
			return fmt.Errorf("%s %s: %s: %s", method, path, res.Status, data)
		}
		if out != nil {
			return json.Unmarshal(data, out)
		}
		return nil
	}
	if err := call("POST", "/v1/domains/register", map[string]any{"domain": *domain, "years": 1}, nil); err != nil {
		return err
	}
	var key struct {
		Key    struct{ KeyName string } `json:"key"`
		Secret string                   `json:"secret"`
	}
	if err := call("POST", "/v1/domains/"+*domain+"/update-keys", map[string]any{"name": "bench"}, &key); err != nil {
		return err
	}
	fmt.Println(*domain)

	var n atomic.Int64
	var failed atomic.Int64
	var mu sync.Mutex
	var latencies []time.Duration
	until := time.Now().Add(*duration)
	start := time.Now()
	var wg sync.WaitGroup
	for c := range *clients {
		wg.Go(func() {
			client := &dns.Client{Net: "tcp", Timeout: 10 * time.Second, TsigSecret: map[string]string{key.Key.KeyName: key.Secret}}
			name := "upd" + strconv.Itoa(c) + "." + *domain + "."
			var mine []time.Duration
			for time.Now().Before(until) && ctx.Err() == nil {
				i := n.Add(1)
				m := new(dns.Msg).SetUpdate("inf.nz.")
				m.RemoveRRset([]dns.RR{&dns.ANY{Hdr: dns.RR_Header{Name: name, Rrtype: dns.TypeTXT}}})
				m.Insert([]dns.RR{&dns.TXT{Hdr: dns.RR_Header{Name: name, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: 300},
					Txt: []string{"v" + strconv.FormatInt(i, 10)}}})
				m.SetTsig(key.Key.KeyName, dns.HmacSHA256, 300, time.Now().Unix())
				t0 := time.Now()
				resp, _, err := client.ExchangeContext(ctx, m, *server)
				if err != nil || resp.Rcode != dns.RcodeSuccess {
					failed.Add(1)
					continue
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(latencies)
	p99 := 0.0
	if len(latencies) > 0 {
		p99 = float64(latencies[min(len(latencies)-1, len(latencies)*99/100)].Microseconds()) / 1000
	}
	line := fmt.Sprintf("requests=%d ok=%d errors=%d rps=%.0f p99_ms=%.2f", len(latencies)+int(failed.Load()),
		len(latencies), failed.Load(), float64(len(latencies))/elapsed.Seconds(), p99)
	if failed.Load() > 0 {
		line += " error_kinds=update_failed"
	}
	fmt.Println(line)
	return nil
}
