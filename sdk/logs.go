package sdk

import (
	"context"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// RequestLog is one /v1 request made with one of your API keys, as the
// request log keeps it for 30 days. Bodies, query strings and secrets are
// never kept.
type RequestLog struct {
	ID   int64     `json:"id"`
	Time time.Time `json:"time" doc:"When the request came"`
	// KeyID and KeyName are the API key the request was made with.
	KeyID   int64  `json:"keyId"`
	KeyName string `json:"keyName"`
	Method  string `json:"method" example:"POST"`
	Path    string `json:"path" doc:"The path as sent, without the query string" example:"/v1/domains/check"`
	Status  int    `json:"status" doc:"The status of the answer" example:"200"`
	// LatencyMs is how long the server took to answer, in milliseconds.
	LatencyMs float64 `json:"latencyMs" example:"1.25"`
	// IdempotencyKey is the Idempotency-Key the request carried, if any.
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
	// RequestID is the answer's X-Request-Id, which support asks for.
	RequestID string `json:"requestId"`
}

// RequestLogPage is one page of the request log, newest first.
type RequestLogPage struct {
	Logs []RequestLog `json:"logs"`
	// NextCursor fetches the next (older) page; empty on the last page.
	NextCursor string `json:"nextCursor,omitempty"`
}

// LogFilter narrows the request log; its zero value lists everything.
type LogFilter struct {
	// KeyID, when not 0, lists only that key's requests.
	KeyID int64
	// Status is a status class ("2xx", "3xx", "4xx", "5xx") or one status
	// code ("404"); empty: any.
	Status string
	// Path lists only requests whose path contains it.
	Path string
	// Since and Until, when not zero, bound the time: Since included,
	// Until excluded.
	Since, Until time.Time
}

func (f LogFilter) query(opts ListOptions) url.Values {
	q := opts.query()
	if f.KeyID != 0 {
		q.Set("key", strconv.FormatInt(f.KeyID, 10))
	}
	if f.Status != "" {
		q.Set("status", f.Status)
	}
	if f.Path != "" {
		q.Set("path", f.Path)
	}
	if !f.Since.IsZero() {
		q.Set("since", f.Since.UTC().Format(time.RFC3339Nano))
	}
	if !f.Until.IsZero() {
		q.Set("until", f.Until.UTC().Format(time.RFC3339Nano))
	}
	return q
}

// LogsService reads the log of your /v1 requests: every request made with
// one of your keys in the last 30 days. Reach it as Client.Logs; it needs a
// key with the read scope. Requests are written to the log in batches, so
// the newest may take a moment to appear.
type LogsService struct{ c *Client }

// Page returns one page of the requests that match f, newest first.
//
// Errors: CodeInvalid for a status that is neither a class nor a code, or
// Since not before Until.
func (s *LogsService) Page(ctx context.Context, f LogFilter, opts ListOptions) (*RequestLogPage, error) {
	var out RequestLogPage
	if err := s.c.do(ctx, http.MethodGet, "/v1/logs", f.query(opts), nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// List iterates over every request that matches f, newest first, fetching
// pages of opts.Limit as it goes. An error ends the iteration.
//
//	for entry, err := range client.Logs.List(ctx, sdk.LogFilter{Status: "4xx"}, sdk.ListOptions{}) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(entry.Time, entry.Method, entry.Path, entry.Status)
//	}
func (s *LogsService) List(ctx context.Context, f LogFilter, opts ListOptions) iter.Seq2[RequestLog, error] {
	return all(ctx, opts, func(ctx context.Context, o ListOptions) ([]RequestLog, string, error) {
		p, err := s.Page(ctx, f, o)
		if err != nil {
			return nil, "", err
		}
		return p.Logs, p.NextCursor, nil
	})
}

// CSV writes the requests that match f to w as CSV (a header row, then
// newest first, at most 100,000 rows), as the server makes it: the same
// file as the dashboard's Export CSV. It is not retried: part of the file
// may have been written when it fails.
func (s *LogsService) CSV(ctx context.Context, f LogFilter, w io.Writer) error {
	target := s.c.baseURL + "/v1/logs.csv"
	if q := f.query(ListOptions{}); len(q) > 0 {
		target += "?" + q.Encode()
	}
	req, err := s.c.newRequest(ctx, http.MethodGet, target, nil, "")
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/csv, application/problem+json")
	resp, err := s.c.httpClient.Do(req)
	if err != nil {
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		apiErr, err := s.c.finish(resp, nil)
		if err != nil {
			return err
		}
		return apiErr
	}
	defer resp.Body.Close()
	if _, err := io.Copy(w, resp.Body); err != nil {
		return fmt.Errorf("nameport: read the request log export (request %s): %w", resp.Header.Get("X-Request-Id"), err)
	}
	return nil
}
