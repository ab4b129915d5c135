package reports

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"time"

	"github.com/nameport/nameport/internal/apperr"
)

// The reports a Report exports as CSV, one table each.
const (
	CSVActivity   = "activity"   // registrations and renewals per month
	CSVSpend      = "spend"      // spend per month by kind
	CSVExtensions = "extensions" // domains per extension
	CSVRenewals   = "renewals"   // the domains due within the longest window
	CSVAllowance  = "allowance"  // this month's registrations against the allowance
)

// CSVNames are the reports CSV exports, in the order the tab shows them.
var CSVNames = []string{CSVActivity, CSVSpend, CSVExtensions, CSVRenewals, CSVAllowance}

// CSVFilename is the name a download of report name is saved as.
func CSVFilename(name string, at time.Time) string {
	return "nameport-" + name + "-" + at.UTC().Format("2006-01-02") + ".csv"
}

// CSV writes report name of r as CSV with a header row: the same figures as
// the report, money in dollars with two decimals ("12.50"), times in RFC
// 3339 UTC. Returns not_found for a report that does not exist.
func (r *Report) CSV(name string) ([]byte, error) {
	var rows [][]string
	switch name {
	case CSVActivity:
		rows = append(rows, []string{"month", "registrations", "renewals"})
		for _, m := range r.Months {
			rows = append(rows, []string{m.Month, strconv.Itoa(m.Registrations), strconv.Itoa(m.Renewals)})
		}
	case CSVSpend:
		rows = append(rows, []string{"month", "registrations", "renewals", "other", "total"})
		for _, m := range r.Months {
			rows = append(rows, []string{m.Month, dollars(m.RegistrationCents), dollars(m.RenewalCents),
				dollars(m.OtherCents), dollars(m.SpendCents())})
		}
	case CSVExtensions:
		rows = append(rows, []string{"extension", "domains", "active", "expired"})
		for _, e := range r.Extensions {
			rows = append(rows, []string{e.Extension, strconv.Itoa(e.Domains), strconv.Itoa(e.Active),
				strconv.Itoa(e.Domains - e.Active)})
		}
	case CSVRenewals:
		rows = append(rows, []string{"domain", "expires_at", "status", "window_days", "renewal_price", "auto_renew", "premium"})
		for _, n := range r.Renewals {
			rows = append(rows, []string{n.Domain, stamp(n.ExpiresAt), n.Status, strconv.Itoa(n.WindowDays),
				dollars(n.PriceCents), strconv.FormatBool(n.AutoRenew), strconv.FormatBool(n.IsPremium)})
		}
	case CSVAllowance:
		a := r.Allowance
		limit, remaining := "unlimited", "unlimited"
		if !a.Unlimited() {
			limit, remaining = strconv.Itoa(a.Limit), strconv.Itoa(a.Remaining())
		}
		rows = append(rows, []string{"tier", "limit", "used", "remaining", "period_start", "resets_at"},
			[]string{a.Tier, limit, strconv.Itoa(a.Used), remaining, stamp(a.PeriodStart), stamp(a.ResetsAt)})
	default:
		return nil, apperr.New(apperr.NotFound, "Report not found")
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(rows); err != nil {
		return nil, fmt.Errorf("reports: write %s CSV: %w", name, err)
	}
	return buf.Bytes(), nil
}

// dollars writes cents as a plain decimal amount, 1250 → "12.50", for
// spreadsheets (no currency sign, no thousands separator).
func dollars(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s%d.%02d", sign, cents/100, cents%100)
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
