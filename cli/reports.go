package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nameport/nameport/sdk"
)

// reportNames are the reports --csv exports.
var reportNames = []string{sdk.ReportActivity, sdk.ReportSpend, sdk.ReportExtensions, sdk.ReportRenewals, sdk.ReportAllowance}

// ReportsOptions are the inputs of `reports`.
type ReportsOptions struct {
	*Options
	// CSV is the report to write as CSV; "" prints every report as tables.
	CSV string
}

// NewCmdReports returns `reports [--csv NAME]`.
func NewCmdReports(opts *Options, runF func(context.Context, *ReportsOptions) error) *cobra.Command {
	o := &ReportsOptions{Options: opts}
	cmd := &cobra.Command{
		Use:   "reports [--csv " + strings.Join(reportNames, "|") + "]",
		Short: "Show your reports: activity and spend per month, domains, upcoming renewals, allowance",
		Long: `Show the figures of the registrar dashboard's Reports tab, computed by the
server: registrations, renewals and spend per month (the last 12 calendar
months, UTC), domains per extension, the renewals due within 30, 60 and 90
days (cumulative) with their cost and the wallet balance they need, the
domains due, and this month's registrations against your tier's allowance.

--csv NAME writes one report as CSV to standard output instead:
  activity    month,registrations,renewals
  spend       month,registrations,renewals,other,total
  extensions  extension,domains,active,expired
  renewals    domain,expires_at,status,window_days,renewal_price,auto_renew,premium
  allowance   tier,limit,used,remaining,period_start,resets_at`,
		Example: `  nameportctl reports
  nameportctl reports --output json
  nameportctl reports --csv renewals > renewals.csv`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.CSV != "" && !slices.Contains(reportNames, o.CSV) {
				return usageErrorf("--csv must be one of %s, not %q", strings.Join(reportNames, ", "), o.CSV)
			}
			return run(cmd, o, runF, reportsRun)
		},
	}
	cmd.Flags().StringVar(&o.CSV, "csv", "", "write this report as CSV: "+strings.Join(reportNames, ", "))
	return cmd
}

func reportsRun(ctx context.Context, o *ReportsOptions) error {
	client, err := o.client()
	if err != nil {
		return err
	}
	if o.CSV != "" {
		body, err := client.Reports.CSV(ctx, o.CSV)
		if err != nil {
			return err
		}
		_, err = o.Out.Write(body)
		return err
	}
	r, err := client.Reports.Get(ctx)
	if err != nil {
		return err
	}
	return display(o.Options, reportDisplay{r})
}

// reportDisplay shows a report as titled tables, one after another.
type reportDisplay struct{ r *sdk.Report }

func (d reportDisplay) JSON() any { return d.r }

// Table writes each table under a title line; a line without tabs ends a
// table, so each one's columns line up on their own.
func (d reportDisplay) Table(w io.Writer) {
	r := d.r
	fmt.Fprintln(w, "Registrations, renewals and spend per month (UTC)")
	row(w, "MONTH", "REGISTRATIONS", "RENEWALS", "ON REGISTRATIONS", "ON RENEWALS", "OTHER", "TOTAL")
	for _, m := range r.Months {
		row(w, m.Month, strconv.Itoa(m.Registrations), strconv.Itoa(m.Renewals), money(m.RegistrationSpend),
			money(m.RenewalSpend), money(m.OtherSpend), money(m.TotalSpend))
	}

	fmt.Fprintln(w, "\nDomains by extension")
	if len(r.Extensions) == 0 {
		fmt.Fprintln(w, "No domains yet.")
	} else {
		row(w, "EXTENSION", "DOMAINS", "ACTIVE", "EXPIRED")
		for _, e := range r.Extensions {
			row(w, e.Extension, strconv.Itoa(e.Domains), strconv.Itoa(e.Active), strconv.Itoa(e.Expired))
		}
	}

	fmt.Fprintf(w, "\nUpcoming renewals (wallet balance %s)\n", money(r.Balance))
	row(w, "WITHIN", "DOMAINS", "COST", "AUTO-RENEW", "BALANCE NEEDED")
	for _, win := range r.RenewalWindows {
		row(w, strconv.Itoa(win.Days)+" days", strconv.Itoa(win.Domains), money(win.Total), money(win.AutoRenewTotal),
			money(win.BalanceNeeded))
	}
	if len(r.Renewals) > 0 {
		fmt.Fprintln(w)
		row(w, "DOMAIN", "EXPIRES", "STATUS", "PRICE", "AUTO-RENEW")
		for _, n := range r.Renewals {
			row(w, n.Domain, date(n.ExpiresAt), strings.ReplaceAll(n.Status, "_", " "), money(n.Price), yesNo(n.AutoRenew))
		}
	}

	a := r.Allowance
	fmt.Fprintln(w, "\nRegistrations this month")
	row(w, "TIER", "USED", "LIMIT", "REMAINING", "RESETS")
	limit, remaining := "unlimited", "unlimited"
	if a.Limit != nil {
		limit = strconv.Itoa(*a.Limit)
	}
	if a.Remaining != nil {
		remaining = strconv.Itoa(*a.Remaining)
	}
	row(w, a.Tier, strconv.Itoa(a.Used), limit, remaining, a.ResetsAt.UTC().Format("2006-01-02 15:04 UTC"))
}
