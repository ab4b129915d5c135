package cli

import (
	"context"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nameport/nameport/sdk"
)

// LogsOptions are the inputs of `logs`.
type LogsOptions struct {
	*Options
	Filter sdk.LogFilter
	// Since and Until are --since and --until as given; Now is the clock
	// they count back from.
	Since, Until string
	Now          func() time.Time
	Limit        int
	// CSV writes the server's CSV export instead of a table or JSON.
	CSV bool
}

// NewCmdLogs returns `logs`.
func NewCmdLogs(opts *Options, runF func(context.Context, *LogsOptions) error) *cobra.Command {
	o := &LogsOptions{Options: opts, Now: time.Now}
	cmd := &cobra.Command{
		Use:   "logs [--key ID] [--status CLASS|CODE] [--path TEXT] [--since WHEN] [--until WHEN] [--limit N] [--csv]",
		Short: "List your API requests, newest first",
		Long: `List the /v1 requests made with your API keys in the last 30 days, newest
first: time, key, method, path, status, latency, Idempotency-Key and request
id (never bodies or secrets). Requests reach the log in batches, so the
newest may take a second to appear.

--key lists one key's requests (its ID, as keys list shows it); --status a
status class (2xx, 3xx, 4xx, 5xx) or code (404); --path those whose path
contains the text; --since and --until bound the time, each a while ago
(1h, 7d), a date (2026-03-01, midnight local time) or an RFC 3339 time.
--csv prints the server's CSV export (at most 100,000 rows) instead.`,
		Example: `  nameportctl logs
  nameportctl logs --status 4xx --since 24h
  nameportctl logs --key 12 --path /v1/domains --limit 200
  nameportctl logs --since 7d --csv > requests.csv`,
		Args: exactArgs(0, ""),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Limit < 0 {
				return usageErrorf("--limit must be 0 (all) or more")
			}
			if o.Filter.KeyID < 0 {
				return usageErrorf("--key must be a key's number, as keys list shows it")
			}
			var err error
			if o.Filter.Since, err = parseWhen("--since", o.Since, o.Now()); err != nil {
				return err
			}
			if o.Filter.Until, err = parseWhen("--until", o.Until, o.Now()); err != nil {
				return err
			}
			return run(cmd, o, runF, logsRun)
		},
	}
	f := cmd.Flags()
	f.Int64Var(&o.Filter.KeyID, "key", 0, "only this API key's requests (its ID)")
	f.StringVar(&o.Filter.Status, "status", "", "only this status class (2xx, 3xx, 4xx, 5xx) or code (404)")
	f.StringVar(&o.Filter.Path, "path", "", "only requests whose path contains this text")
	f.StringVar(&o.Since, "since", "", "only requests since then: a while ago (1h, 7d), a date or an RFC 3339 time")
	f.StringVar(&o.Until, "until", "", "only requests before then: a while ago, a date or an RFC 3339 time")
	f.IntVar(&o.Limit, "limit", 50, "show at most this many, newest first (0: all); not with --csv")
	f.BoolVar(&o.CSV, "csv", false, "print the CSV export (every matching request, at most 100,000)")
	return cmd
}

// parseWhen reads --since or --until: a while before now (90m, 1h, 7d), a
// date (midnight, local time) or an RFC 3339 time; empty is no bound.
func parseWhen(flag, s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n > 0 && n <= 36500 {
			return now.Add(-time.Duration(n) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return now.Add(-d), nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, s, time.Local); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, usageErrorf("%s must be a while ago (1h, 7d), a date (2026-03-01) or a time (2026-03-01T18:00:00Z), not %q", flag, s)
}

func logsRun(ctx context.Context, o *LogsOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	if o.CSV {
		return client.Logs.CSV(ctx, o.Filter, o.Out)
	}
	page := 100
	if o.Limit > 0 && o.Limit < page {
		page = o.Limit
	}
	var logs []sdk.RequestLog
	for entry, err := range client.Logs.List(ctx, o.Filter, sdk.ListOptions{Limit: page}) {
		if err != nil {
			return err
		}
		logs = append(logs, entry)
		if o.Limit > 0 && len(logs) == o.Limit {
			break
		}
	}
	return display(o.Options, logDisplay{logs})
}

// logDisplay shows request log entries.
type logDisplay struct{ logs []sdk.RequestLog }

func (d logDisplay) JSON() any {
	if d.logs == nil {
		return []sdk.RequestLog{}
	}
	return d.logs
}

func (d logDisplay) Table(w io.Writer) {
	row(w, "TIME", "KEY", "METHOD", "PATH", "STATUS", "LATENCY", "IDEMPOTENCY KEY", "REQUEST ID")
	for _, l := range d.logs {
		idem := l.IdempotencyKey
		if idem == "" {
			idem = "-"
		}
		row(w, l.Time.Local().Format("2006-01-02 15:04:05"), l.KeyName, l.Method, l.Path, strconv.Itoa(l.Status),
			strconv.FormatFloat(l.LatencyMs, 'f', 1, 64)+" ms", idem, l.RequestID)
	}
}
