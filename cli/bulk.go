package cli

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/nameport/nameport/sdk"
)

// Bulk checks and registrations from a file: `domain check --file` and
// `domain register --file`. The file holds one name a line, or is a CSV
// whose header names a "name" or "domain" column (else the first column is
// taken); "-" reads standard input.

// readNamesFile returns the names of path.
func readNamesFile(path string) ([]string, error) {
	var r io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, usageErrorf("--file: %v", err)
		}
		defer f.Close()
		r = f
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.Comment = '#'
	records, err := cr.ReadAll()
	if err != nil {
		return nil, usageErrorf("--file %s: %v", path, err)
	}
	column, start := 0, 0
	if len(records) > 0 {
		for i, cell := range records[0] {
			if h := strings.ToLower(strings.TrimSpace(cell)); h == "name" || h == "domain" || h == "domain name" {
				column, start = i, 1
				break
			}
		}
	}
	var names []string
	for _, rec := range records[start:] {
		if column < len(rec) {
			if n := strings.TrimSpace(rec[column]); n != "" {
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		return nil, usageErrorf("--file %s holds no domain names", path)
	}
	return names, nil
}

// bulkCheckDisplay shows a bulk check.
type bulkCheckDisplay struct{ c *sdk.BulkCheck }

func (d bulkCheckDisplay) JSON() any { return d.c }

func (d bulkCheckDisplay) Table(w io.Writer) {
	row(w, "DOMAIN", "AVAILABLE", "PRICE", "NOTE")
	for _, r := range d.c.Results {
		switch {
		case r.Error != "":
			row(w, r.Domain, "-", "-", r.Error)
		case r.Available:
			note := ""
			if r.IsPremium {
				note = "premium"
			}
			row(w, r.Domain, "yes", fmt.Sprintf("$%.2f/yr", r.Price), note)
		default:
			row(w, r.Domain, "no", fmt.Sprintf("$%.2f/yr", r.Price), r.Reason)
		}
	}
	row(w, "")
	row(w, fmt.Sprintf("%d of %d available, $%.2f a year together", d.c.Available, len(d.c.Results), d.c.Total))
}

func domainCheckFileRun(ctx context.Context, o *DomainCheckOptions) error {
	names, err := readNamesFile(o.File)
	if err != nil {
		return err
	}
	client, err := o.client()
	if err != nil {
		return err
	}
	c, err := client.Bulk.Check(ctx, names)
	if err != nil {
		return err
	}
	return display(o.Options, bulkCheckDisplay{c})
}

// bulkJobDisplay shows a finished job's rows.
type bulkJobDisplay struct{ j *sdk.BulkJob }

func (d bulkJobDisplay) JSON() any { return d.j }

func (d bulkJobDisplay) Table(w io.Writer) {
	row(w, "DOMAIN", "RESULT", "CHARGED", "MESSAGE")
	for _, r := range d.j.Rows {
		result := map[string]string{sdk.BulkRowSucceeded: doneWord(d.j.Kind), sdk.BulkRowFailed: "refused"}[r.State]
		if result == "" {
			result = r.State
		}
		row(w, r.Domain, result, fmt.Sprintf("$%.2f", r.Charged), r.Message)
	}
	row(w, "")
	summary := fmt.Sprintf("%d %s, %d refused", d.j.Succeeded, doneWord(d.j.Kind), d.j.Failed)
	if d.j.Kind == sdk.BulkRegister || d.j.Kind == sdk.BulkRenew {
		summary += fmt.Sprintf("; charged $%.2f", d.j.Charged)
	}
	row(w, summary)
}

// doneWord is what a row of a job of kind that succeeded is called.
func doneWord(kind string) string {
	switch kind {
	case sdk.BulkRenew:
		return "renewed"
	case sdk.BulkAutoRenew:
		return "updated"
	case sdk.BulkDNSTemplate:
		return "applied"
	}
	return "registered"
}

// isTerminal tells whether w is a terminal (a character device), where a
// progress bar redraws itself; elsewhere progress is plain lines.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress draws a job's progress on w: a bar on a terminal, a line per
// change otherwise.
type progress struct {
	w    io.Writer
	tty  bool
	last int
}

func (p *progress) update(j *sdk.BulkJob) {
	if j.Done == p.last && j.State != sdk.BulkDone {
		return
	}
	p.last = j.Done
	if !p.tty {
		fmt.Fprintf(p.w, "%d of %d done (%d %s, %d refused)\n", j.Done, j.Count, j.Succeeded, doneWord(j.Kind), j.Failed)
		return
	}
	const width = 30
	filled := 0
	if j.Count > 0 {
		filled = j.Done * width / j.Count
	}
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d", strings.Repeat("#", filled), strings.Repeat(".", width-filled), j.Done, j.Count)
	if j.State == sdk.BulkDone {
		fmt.Fprintln(p.w)
	}
}

// confirm asks on errOut and reads the answer from in; only "y" or "yes"
// agrees.
func confirm(in io.Reader, errOut io.Writer, question string) bool {
	fmt.Fprintf(errOut, "%s [y/N] ", question)
	line, _ := bufio.NewReader(in).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

func domainRegisterFileRun(ctx context.Context, o *DomainRegisterOptions) error {
	if len(o.Nameservers) > 0 {
		return usageErrorf("--nameserver does not go with --file")
	}
	names, err := readNamesFile(o.File)
	if err != nil {
		return err
	}
	client, err := o.client()
	if err != nil {
		return err
	}
	// The total comes from the same check the server repeats: a batch whose
	// prices changed in between is refused, not charged differently.
	c, err := client.Bulk.Check(ctx, names)
	if err != nil {
		return err
	}
	years := 1
	if o.Years != nil {
		years = *o.Years
	}
	var chosen []string
	var totalCents int64
	for _, r := range c.Results {
		if r.Available {
			chosen = append(chosen, r.Domain)
			totalCents += int64(r.Price*100+0.5) * int64(years)
		} else {
			why := r.Error
			if why == "" {
				why = "not available (" + r.Reason + ")"
			}
			fmt.Fprintf(o.ErrOut, "skipping %s: %s\n", r.Domain, why)
		}
	}
	if len(chosen) == 0 {
		return fmt.Errorf("none of the %d names can be registered", len(c.Results))
	}
	total := float64(totalCents) / 100
	question := fmt.Sprintf("Register %d domains for %d year(s), $%.2f in total from your wallet?", len(chosen), years, total)
	if !o.Yes {
		if o.File == "-" {
			return usageErrorf("names read from standard input: pass --yes to confirm")
		}
		if !confirm(os.Stdin, o.ErrOut, question) {
			return fmt.Errorf("not confirmed: nothing registered")
		}
	}
	in := sdk.BulkRegisterRequest{Names: chosen, Years: o.Years, Total: total}
	if o.NoAutoRenew {
		off := false
		in.AutoRenew = &off
	}
	if o.IdempotencyKey != "" {
		ctx = sdk.WithIdempotencyKey(ctx, o.IdempotencyKey)
	}
	job, err := client.Bulk.Register(ctx, in)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.ErrOut, "Job %d: registering %d domains\n", job.ID, job.Count)
	return followJob(ctx, o.Options, client, job)
}

// followJob waits for job to finish, drawing its progress on standard
// error, then shows each row's result; an error when a row was refused.
func followJob(ctx context.Context, o *Options, client *sdk.Client, job *sdk.BulkJob) error {
	p := &progress{w: o.ErrOut, tty: isTerminal(o.ErrOut), last: -1}
	done, err := client.Bulk.Wait(ctx, job.ID, 500*time.Millisecond, p.update)
	if err != nil {
		return err
	}
	if err := display(o, bulkJobDisplay{done}); err != nil {
		return err
	}
	if done.Failed > 0 {
		return fmt.Errorf("%d of %d domains were refused", done.Failed, done.Count)
	}
	return nil
}
