package sdk

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"
)

// BulkMaxNames is the most names one bulk check or job takes.
const BulkMaxNames = 1000

// Bulk job kinds, states and row states.
const (
	BulkRegister    = "register"
	BulkRenew       = "renew"
	BulkAutoRenew   = "auto_renew"
	BulkDNSTemplate = "dns_template"

	BulkQueued  = "queued"
	BulkRunning = "running"
	BulkDone    = "done"

	BulkRowPending   = "pending"
	BulkRowSucceeded = "succeeded"
	BulkRowFailed    = "failed"
)

// BulkCheckRequest asks about many names at once.
type BulkCheckRequest struct {
	Names []string `json:"names" doc:"Full names, such as example.inf.nz: at most 1,000 once blanks and repeats are dropped (case and a final dot do not count)" example:"[\"example.inf.nz\",\"example.biz.ee\"]"`
}

// BulkCheckResult is one name's answer.
type BulkCheckResult struct {
	Domain    string  `json:"domain" doc:"The name as checked: lower case, without a final dot"`
	Available bool    `json:"available"`
	Reason    string  `json:"reason,omitempty" doc:"Why not available: registered, reserved or premium_reserved"`
	IsPremium bool    `json:"isPremium"`
	Price     float64 `json:"price" doc:"Yearly price for your account, in dollars"`
	Currency  string  `json:"currency,omitempty"`
	Error     string  `json:"error,omitempty" doc:"Why the name cannot be checked at all (not a valid name); the other fields are empty then"`
}

// BulkCheck is the answer of a bulk check, in the order asked.
type BulkCheck struct {
	Results []BulkCheckResult `json:"results"`
	// Available is how many can be registered, Total their yearly price.
	Available int     `json:"available"`
	Total     float64 `json:"total" doc:"The yearly price of the available names together, in dollars"`
}

// BulkRegisterRequest registers many names in one background job.
type BulkRegisterRequest struct {
	Names []string `json:"names" doc:"Full names to register, at most 1,000"`
	Years *int     `json:"years,omitempty" doc:"Years for each, 1 to 10; absent means 1"`
	// AutoRenew of the new domains; nil means on.
	AutoRenew *bool `json:"autoRenew,omitempty" doc:"Auto-renewal of the new domains; absent means on"`
	// Total is what you confirmed the whole batch costs (years × the
	// yearly prices, from BulkCheck). A batch whose total is no longer
	// that is refused (CodeConflict) before anything is done.
	Total float64 `json:"total" doc:"The total you confirmed, in dollars: refused with 409 if prices changed since you checked"`
}

// BulkRenewRequest renews many of your domains, one period each.
type BulkRenewRequest struct {
	Names []string `json:"names" doc:"Your domains to renew, one renewal period each, at most 1,000"`
	Total float64  `json:"total" doc:"The total of their renewal prices you confirmed, in dollars"`
}

// BulkAutoRenewRequest turns auto-renewal of many of your domains on or off.
type BulkAutoRenewRequest struct {
	Names     []string `json:"names" doc:"Your domains, at most 1,000"`
	AutoRenew bool     `json:"autoRenew" doc:"true turns auto-renewal on, false off"`
}

// BulkDNSTemplateRequest applies a DNS template to many of your domains.
type BulkDNSTemplateRequest struct {
	Names      []string `json:"names" doc:"Your domains, at most 1,000"`
	TemplateID int64    `json:"templateId" minimum:"1" doc:"The template's id"`
}

// BulkJob is a bulk operation running in the background.
type BulkJob struct {
	ID    int64  `json:"id"`
	Kind  string `json:"kind" enum:"register,renew,auto_renew,dns_template"`
	State string `json:"state" enum:"queued,running,done"`
	// Count is the job's rows (names); Done of them have their result.
	Count     int        `json:"count"`
	Done      int        `json:"done"`
	Succeeded int        `json:"succeeded"`
	Failed    int        `json:"failed"`
	Total     float64    `json:"total" doc:"The total confirmed, in dollars (register and renew)"`
	Charged   float64    `json:"charged" doc:"What the rows that succeeded cost, in dollars"`
	Years     int        `json:"years"`
	AutoRenew *bool      `json:"autoRenew,omitempty"`
	Template  *int64     `json:"templateId,omitempty"`
	CreatedAt time.Time  `json:"createdAt"`
	Started   *time.Time `json:"startedAt,omitempty"`
	Finished  *time.Time `json:"finishedAt,omitempty"`
	// Rows are the names and their results, in order (GET of one job).
	Rows []BulkJobRow `json:"rows,omitempty"`
}

// BulkJobRow is one name of a job.
type BulkJobRow struct {
	Position int     `json:"position"`
	Domain   string  `json:"domain"`
	State    string  `json:"state" enum:"pending,succeeded,failed"`
	Message  string  `json:"message,omitempty" doc:"Why the row failed, or what it did"`
	Price    float64 `json:"price" doc:"What was confirmed for this row, in dollars"`
	Charged  float64 `json:"charged" doc:"What it cost: 0 unless it succeeded"`
}

// BulkJobList is a page of your latest jobs, newest first, without rows.
type BulkJobList struct {
	Jobs []BulkJob `json:"jobs"`
}

// DNSTemplate is a saved set of DNS records to apply to many domains.
type DNSTemplate struct {
	ID        int64       `json:"id"`
	Name      string      `json:"name"`
	Records   []RecordSet `json:"records"`
	CreatedAt time.Time   `json:"createdAt"`
	UpdatedAt time.Time   `json:"updatedAt"`
}

// DNSTemplateRequest makes or replaces a DNS template.
type DNSTemplateRequest struct {
	Name    string      `json:"name" doc:"1 to 100 characters, unique among your templates" example:"Web hosting"`
	Records []RecordSet `json:"records" doc:"Record sets, 1 to 50, as PUT /v1/domains/{domain}/records takes them; names are relative to each domain"`
}

// DNSTemplateList is your DNS templates by name.
type DNSTemplateList struct {
	Templates []DNSTemplate `json:"templates"`
}

// BulkService checks and registers many names at once, renews and sets
// auto-renewal of many domains, and applies DNS templates. Reach it as
// Client.Bulk. Jobs run in the background: Wait follows one to its end.
type BulkService struct{ c *Client }

// Check tells, for up to BulkMaxNames names, whether each can be
// registered and its yearly price for you. A name that is not valid gets
// its own Error; the batch is refused (CodeInvalid) only when empty or too
// long. A batch counts as one availability check against the rate limit.
func (s *BulkService) Check(ctx context.Context, names []string) (*BulkCheck, error) {
	var out BulkCheck
	if err := s.c.do(ctx, http.MethodPost, "/v1/bulk/check", nil, BulkCheckRequest{Names: names}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Register starts a job registering the names, each paid from your wallet
// as it is registered. in.Total must be the batch's total as Check priced
// it (for Years years): CodeConflict when prices changed since. Each row
// fails on its own (CodeInsufficientFunds, taken meanwhile, allowance used
// up) and charges nothing then. The call carries one Idempotency-Key, so
// a retry returns the same job.
func (s *BulkService) Register(ctx context.Context, in BulkRegisterRequest) (*BulkJob, error) {
	return s.start(ctx, "/v1/bulk/register", in)
}

// Renew starts a job renewing your domains, one period each.
func (s *BulkService) Renew(ctx context.Context, in BulkRenewRequest) (*BulkJob, error) {
	return s.start(ctx, "/v1/bulk/renew", in)
}

// AutoRenew starts a job turning auto-renewal of your domains on or off.
func (s *BulkService) AutoRenew(ctx context.Context, in BulkAutoRenewRequest) (*BulkJob, error) {
	return s.start(ctx, "/v1/bulk/auto-renew", in)
}

// ApplyTemplate starts a job applying a DNS template to your domains.
func (s *BulkService) ApplyTemplate(ctx context.Context, in BulkDNSTemplateRequest) (*BulkJob, error) {
	return s.start(ctx, "/v1/bulk/dns-template", in)
}

func (s *BulkService) start(ctx context.Context, path string, in any) (*BulkJob, error) {
	var out BulkJob
	if err := s.c.effect(ctx, http.MethodPost, path, in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Job returns job id with its rows. Errors: CodeNotFound.
func (s *BulkService) Job(ctx context.Context, id int64) (*BulkJob, error) {
	var out BulkJob
	if err := s.c.do(ctx, http.MethodGet, "/v1/bulk/jobs/"+strconv.FormatInt(id, 10), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Jobs returns your latest jobs, newest first, without rows.
func (s *BulkService) Jobs(ctx context.Context) ([]BulkJob, error) {
	var out BulkJobList
	if err := s.c.do(ctx, http.MethodGet, "/v1/bulk/jobs", nil, nil, &out); err != nil {
		return nil, err
	}
	return out.Jobs, nil
}

// Wait polls job id every interval (a second when 0) until it is done, and
// returns it with its rows. progress, when not nil, is called with each
// state seen.
func (s *BulkService) Wait(ctx context.Context, id int64, interval time.Duration, progress func(*BulkJob)) (*BulkJob, error) {
	if interval <= 0 {
		interval = time.Second
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		j, err := s.Job(ctx, id)
		if err != nil {
			return nil, err
		}
		if progress != nil {
			progress(j)
		}
		if j.State == BulkDone {
			return j, nil
		}
		select {
		case <-ctx.Done():
			return nil, errors.Join(ctx.Err(), errors.New("bulk job "+strconv.FormatInt(id, 10)+" still "+j.State))
		case <-t.C:
		}
	}
}

// Templates returns your DNS templates.
func (s *BulkService) Templates(ctx context.Context) ([]DNSTemplate, error) {
	var out DNSTemplateList
	if err := s.c.do(ctx, http.MethodGet, "/v1/dns-templates", nil, nil, &out); err != nil {
		return nil, err
	}
	return out.Templates, nil
}

// CreateTemplate saves a DNS template. Errors: CodeInvalid for a bad set
// (the messages of a record set change), CodeConflict for a name in use.
func (s *BulkService) CreateTemplate(ctx context.Context, in DNSTemplateRequest) (*DNSTemplate, error) {
	var out DNSTemplate
	if err := s.c.effect(ctx, http.MethodPost, "/v1/dns-templates", in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// UpdateTemplate replaces template id.
func (s *BulkService) UpdateTemplate(ctx context.Context, id int64, in DNSTemplateRequest) (*DNSTemplate, error) {
	var out DNSTemplate
	if err := s.c.do(ctx, http.MethodPut, "/v1/dns-templates/"+strconv.FormatInt(id, 10), nil, in, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteTemplate deletes template id.
func (s *BulkService) DeleteTemplate(ctx context.Context, id int64) error {
	return s.c.do(ctx, http.MethodDelete, "/v1/dns-templates/"+strconv.FormatInt(id, 10), nil, nil, nil)
}
