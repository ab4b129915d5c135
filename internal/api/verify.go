package api

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/nameport/nameport/internal/account"
)

// Email verification: sign-up mails a link to /verify-email?token=…; the
// page posts the token here. Until then the account can sign in but not
// register names or add funds (account.User.MayTransact, asked by the
// operations that do).

type VerifyEmailInput struct {
	Body struct {
		Token string `json:"token" required:"false" doc:"The token from the verification link"`
	}
}

type emailVerificationBody struct {
	Email    string `json:"email"`
	Verified bool   `json:"verified"`
}

type EmailVerificationOutput struct {
	Body envelope[emailVerificationBody]
}

func addEmailVerificationRoutes(a huma.API, accounts *account.Service) {
	h := authHandlers{accounts}
	register(a, accessPublic, huma.Operation{
		OperationID: "auth-verify-email", Method: http.MethodPost, Path: "/api/auth/verify-email", Tags: []string{"Auth"},
		Summary:     "Verify an email address",
		Description: "Uses the token of a verification link (single use, 48 hours) and marks its account's address verified.",
		Errors:      []int{http.StatusUnprocessableEntity},
	}, h.verifyEmail)

	register(a, accessAccount, huma.Operation{
		OperationID: "auth-email-verification-get", Method: http.MethodGet, Path: "/api/auth/email-verification",
		Tags: []string{"Auth"}, Summary: "Is my email address verified?",
		Description: "Unverified accounts can sign in but cannot register names or add funds.",
		Errors:      []int{http.StatusUnauthorized},
	}, h.emailVerification)

	register(a, accessAccount, huma.Operation{
		OperationID: "auth-email-verification-resend", Method: http.MethodPost, Path: "/api/auth/email-verification/resend",
		Tags: []string{"Auth"}, Summary: "Send the verification email again",
		Description: "Mails a new verification link. A few per 15 minutes; more answer 429.",
		Errors:      []int{http.StatusUnauthorized, http.StatusConflict, http.StatusTooManyRequests},
	}, h.resendVerification)
}

// verifyEmail uses a verification link's token and marks its account's address verified.
func (h authHandlers) verifyEmail(ctx context.Context, in *VerifyEmailInput) (*DoneOutput, error) {
	if err := h.accounts.VerifyEmail(ctx, in.Body.Token); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}

// emailVerification tells whether the signed-in account's address is verified.
func (h authHandlers) emailVerification(ctx context.Context, _ *struct{}) (*EmailVerificationOutput, error) {
	u := sessionUser(ctx)
	return &EmailVerificationOutput{Body: ok(emailVerificationBody{Email: u.Email, Verified: u.EmailVerified()})}, nil
}

// resendVerification mails the signed-in account a new verification link.
func (h authHandlers) resendVerification(ctx context.Context, _ *struct{}) (*DoneOutput, error) {
	u := sessionUser(ctx)
	if err := h.accounts.ResendVerification(ctx, u); err != nil {
		return nil, fail(ctx, err)
	}
	return done(), nil
}
