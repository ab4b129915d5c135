package api

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/notify"
)

type OutboxListInput struct {
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"50" doc:"Messages per page"`
	Cursor string `query:"cursor" doc:"nextCursor of the previous page"`
}

type outboxMessageBody struct {
	ID        int64      `json:"id"`
	UserID    int64      `json:"userId,omitempty"`
	To        string     `json:"to"`
	Kind      string     `json:"kind" doc:"registration_receipt, deposit_receipt, renewal_succeeded, renewal_failed, expiry_warning, domain_expired, domain_released or password_reset"`
	Subject   string     `json:"subject"`
	Body      string     `json:"body" doc:"Plain text. Reset links are removed once a message really went out by SMTP."`
	Status    string     `json:"status" enum:"logged,sent,failed" doc:"logged: no SMTP server configured, kept here only"`
	Error     string     `json:"error,omitempty" doc:"Why the last attempt failed"`
	CreatedAt time.Time  `json:"createdAt"`
	SentAt    *time.Time `json:"sentAt,omitempty"`
}

type outboxPageBody struct {
	Messages   []outboxMessageBody `json:"messages"`
	NextCursor string              `json:"nextCursor,omitempty" doc:"Pass as cursor for the next (older) page; absent on the last"`
}

type OutboxListOutput struct {
	Body envelope[outboxPageBody]
}

// outboxHandlers are the handlers of the admin view of outgoing mail.
type outboxHandlers struct {
	mail *notify.Service
}

func addNotifyRoutes(a huma.API, mail *notify.Service) {
	h := outboxHandlers{mail}
	register(a, accessAdmin, huma.Operation{
		OperationID: "admin-outbox-list", Method: http.MethodGet, Path: "/api/admin/outbox", Tags: []string{"Admin"},
		Summary:     "Outgoing mail",
		Description: "Every message Nameport has sent or, without an SMTP server, only recorded: newest first, a page at a time.",
		Errors:      []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusUnprocessableEntity},
	}, h.listOutbox)
}

// listOutbox lists the outgoing mail, newest first, a page at a time.
func (h outboxHandlers) listOutbox(ctx context.Context, in *OutboxListInput) (*OutboxListOutput, error) {
	list, next, err := fetchPage(in.Cursor, in.Limit, func(m *notify.OutboxMessage) int64 { return m.ID },
		func(before int64, n int) ([]notify.OutboxMessage, error) { return h.mail.Outbox(ctx, before, n) })
	if err != nil {
		return nil, fail(ctx, err)
	}
	page := outboxPageBody{Messages: []outboxMessageBody{}, NextCursor: next}
	for _, m := range list {
		b := outboxMessageBody{ID: m.ID, UserID: m.UserID, To: m.ToAddress, Kind: m.Kind, Subject: m.Subject,
			Body: m.Body, Status: m.Status, Error: m.Error, CreatedAt: m.CreatedAt}
		if !m.SentAt.IsZero() {
			sent := m.SentAt
			b.SentAt = &sent
		}
		page.Messages = append(page.Messages, b)
	}
	return &OutboxListOutput{Body: ok(page)}, nil
}

type ForgotPasswordInput struct {
	Body struct {
		Email string `json:"email" required:"false"`
	}
}

type ResetPasswordInput struct {
	Body struct {
		Token           string `json:"token" required:"false" doc:"The token of the reset link"`
		NewPassword     string `json:"newPassword" required:"false"`
		ConfirmPassword string `json:"confirmPassword" required:"false"`
	}
}

func addPasswordResetRoutes(a huma.API, accounts *account.Service) {
	h := authHandlers{accounts}
	register(a, accessPublic, huma.Operation{
		OperationID: "auth-forgot-password", Method: http.MethodPost, Path: "/api/auth/forgot-password", Tags: []string{"Auth"},
		Summary: "Ask for a password reset link",
		Description: "Mails a link that resets the password, valid for one hour and once, when an account has this email. " +
			"The answer is the same whether or not one has. Requests are throttled per client.",
		Errors: []int{http.StatusUnprocessableEntity, http.StatusTooManyRequests},
	}, h.forgotPassword)

	register(a, accessPublic, huma.Operation{
		OperationID: "auth-reset-password", Method: http.MethodPost, Path: "/api/auth/reset-password", Tags: []string{"Auth"},
		Summary:     "Set a new password with a reset link",
		Description: "Sets the new password, uses the link up and logs the account out everywhere.",
		Errors:      []int{http.StatusUnprocessableEntity},
	}, h.resetPassword)
}

// forgotPassword mails a password reset link to the account with the email, if there is one.
func (h authHandlers) forgotPassword(ctx context.Context, in *ForgotPasswordInput) (*DoneOutput, error) {
	if err := h.accounts.RequestPasswordReset(ctx, in.Body.Email, requestOf(ctx).client); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}

// resetPassword sets a new password with a reset link's token.
func (h authHandlers) resetPassword(ctx context.Context, in *ResetPasswordInput) (*DoneOutput, error) {
	b := in.Body
	if err := h.accounts.ResetPassword(ctx, b.Token, b.NewPassword, b.ConfirmPassword); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}
