package sdk

import (
	"context"
	"net/http"
	"time"
)

// The reports ReportsService.CSV exports, one table each.
const (
	// ReportActivity is registrations and renewals per month:
	// month,registrations,renewals.
	ReportActivity = "activity"
	// ReportSpend is spend per month in dollars:
	// month,registrations,renewals,other,total.
	ReportSpend = "spend"
	// ReportExtensions is domains per extension:
	// extension,domains,active,expired.
	ReportExtensions = "extensions"
	// ReportRenewals is the domains due within 90 days:
	// domain,expires_at,status,window_days,renewal_price,auto_renew,premium.
	ReportRenewals = "renewals"
	// ReportAllowance is this month's registrations against the tier's
	// allowance: tier,limit,used,remaining,period_start,resets_at.
	ReportAllowance = "allowance"
)

// ReportsService reads your reports: the figures of the Reports tab of the
// registrar dashboard, computed by the server. Reach it as Client.Reports;
// it needs a key with the read scope.
type ReportsService struct{ c *Client }

// Get returns every figure of your reports as of now.
func (s *ReportsService) Get(ctx context.Context) (*Report, error) {
	var out Report
	if err := s.c.do(ctx, http.MethodGet, "/v1/reports", nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CSV returns report name (ReportActivity, ReportSpend, ReportExtensions,
// ReportRenewals or ReportAllowance) as CSV with a header row: the same
// figures as Get, money in dollars with two decimals, times in RFC 3339.
//
// Errors: CodeInvalid for a report that does not exist.
func (s *ReportsService) CSV(ctx context.Context, name string) ([]byte, error) {
	if name == "" {
		return nil, errEmpty("report")
	}
	var out []byte
	if err := s.c.do(ctx, http.MethodGet, "/v1/reports/"+escape(name)+".csv", nil, nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// Report is every figure of your reports, computed by the server at
// GeneratedAt. Months are calendar months in UTC; money is in US dollars.
type Report struct {
	GeneratedAt time.Time `json:"generatedAt" doc:"When the figures were computed"`
	// Months are the last 12 calendar months, oldest first, every one
	// present (zeros for a quiet month).
	Months []ReportMonth `json:"months" doc:"The last 12 calendar months (UTC), oldest first, every one present"`
	// Extensions are your domains per extension, most first.
	Extensions []ReportExtension `json:"extensions" doc:"Your domains per extension, most first"`
	// Renewals are your domains due within 90 days, soonest first,
	// domains that expired and are still in their grace period included.
	Renewals []UpcomingRenewal `json:"renewals" doc:"Your domains due for renewal within 90 days, soonest first; expired domains still in their grace period are due now and included"`
	// RenewalWindows total the renewals due within 30, 60 and 90 days;
	// they are cumulative (the 60-day window includes the 30-day one).
	RenewalWindows []RenewalWindow `json:"renewalWindows" doc:"Renewals due within 30, 60 and 90 days (cumulative), with their cost and the balance they need"`
	Balance        float64         `json:"balance" doc:"Your wallet balance" example:"446"`
	Currency       string          `json:"currency" example:"USD"`
	Allowance      Allowance       `json:"allowance" doc:"New registrations this month against your tier's allowance"`
}

// ReportMonth is one calendar month (UTC) of your ledger. Only completed
// debits count.
type ReportMonth struct {
	Month             string  `json:"month" doc:"The month, YYYY-MM (UTC)" example:"2026-11"`
	Registrations     int     `json:"registrations" doc:"New registrations paid from the wallet" example:"12"`
	Renewals          int     `json:"renewals" doc:"Renewals paid from the wallet" example:"3"`
	RegistrationSpend float64 `json:"registrationSpend" doc:"Spent on registrations" example:"72"`
	RenewalSpend      float64 `json:"renewalSpend" doc:"Spent on renewals" example:"18"`
	OtherSpend        float64 `json:"otherSpend" doc:"Spent on anything else" example:"0"`
	TotalSpend        float64 `json:"totalSpend" doc:"Everything the wallet paid in the month" example:"90"`
}

// ReportExtension is how many domains you hold under an extension.
type ReportExtension struct {
	Extension string `json:"extension" example:".inf.nz"`
	Domains   int    `json:"domains" doc:"Domains you hold" example:"42"`
	Active    int    `json:"active" doc:"Those that have not expired" example:"40"`
	Expired   int    `json:"expired" doc:"Those that have expired (out of DNS; renewable during the grace period)" example:"2"`
}

// UpcomingRenewal is one of your domains that falls due within 90 days.
type UpcomingRenewal struct {
	Domain      string    `json:"domain" example:"example.inf.nz"`
	ExpiresAt   time.Time `json:"expiresAt"`
	Status      string    `json:"status" enum:"active,expiring_soon,expired" doc:"expired: in its grace period, due now"`
	GraceEndsAt time.Time `json:"graceEndsAt" doc:"After this the domain is released"`
	Price       float64   `json:"price" doc:"What one renewal costs you" example:"6"`
	AutoRenew   bool      `json:"autoRenew" doc:"Renewed from the wallet automatically"`
	Premium     bool      `json:"premium"`
	WindowDays  int       `json:"windowDays" enum:"30,60,90" doc:"The smallest window the domain falls in"`
}

// RenewalWindow totals the renewals due within Days days.
type RenewalWindow struct {
	Days           int     `json:"days" enum:"30,60,90"`
	Domains        int     `json:"domains" doc:"Domains due within the window" example:"5"`
	Total          float64 `json:"total" doc:"What renewing them all costs" example:"30"`
	AutoRenewTotal float64 `json:"autoRenewTotal" doc:"The part renewed automatically (auto-renew on)" example:"24"`
	BalanceNeeded  float64 `json:"balanceNeeded" doc:"What the wallet lacks to renew them all: total less balance, never below 0" example:"0"`
}
