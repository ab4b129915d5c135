package api_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/sdk"
)

// sdkError returns err as the SDK's *sdk.Error.
func sdkError(t *testing.T, err error) *sdk.Error {
	t.Helper()
	var apiErr *sdk.Error
	require.True(t, errors.As(err, &apiErr), "%v", err)
	return apiErr
}

// The registrar API's email forwarding, driven through the Go SDK against a
// real server on each engine: on (records appear), a rule whose address
// the link mailed to it confirms, refusals in the service's words, another
// registrar's domain unknown, a retried add that adds once, delete, off.
func TestEmailForwardingThroughTheSDK(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			b := forwardingSetup(t, engine)
			_, key := b.account("acmefwd", "registrar")
			client := sdk.NewClient(key, sdk.WithBaseURL(b.srv.URL), sdk.WithBackoff(10*time.Millisecond, 100*time.Millisecond))
			const dom = "acme-mail.inf.nz"
			_, err := client.Domains.Register(ctx, sdk.RegisterRequest{Domain: dom})
			require.NoError(t, err)

			f, err := client.Domains.EmailForwarding(ctx, dom)
			require.NoError(t, err)
			require.False(t, f.Enabled)
			require.Equal(t, "mx.inf.nz", f.MailHost)
			require.Equal(t, 100, f.MaxRules, "a registrar's limit")
			require.Empty(t, f.Rules)
			require.NotNil(t, f.Replaces)

			f, err = client.Domains.SetEmailForwarding(ctx, dom, true, false)
			require.NoError(t, err)
			require.True(t, f.Enabled)
			records, err := client.DNS.List(ctx, dom)
			require.NoError(t, err)
			var mail []string
			for _, r := range records {
				switch r.Type {
				case "MX":
					require.Equal(t, 10, *r.Priority)
					mail = append(mail, "MX "+r.Content)
				case "TXT":
					mail = append(mail, "TXT "+r.Content)
				}
			}
			require.ElementsMatch(t, []string{"MX mx.inf.nz", "TXT v=spf1 mx ~all"}, mail)

			// A retried add (the same Idempotency-Key) adds once and
			// answers as the first time.
			retry := sdk.WithIdempotencyKey(ctx, "add-catch-all")
			rule, err := client.Domains.AddForwardingRule(retry, dom, "*", []string{"ops@example.org", "ops@Example.ORG"})
			require.NoError(t, err)
			require.Equal(t, "*", rule.Alias)
			require.Equal(t, []sdk.ForwardingDestination{{Address: "ops@example.org"}}, rule.Destinations, "one address, once")
			again, err := client.Domains.AddForwardingRule(retry, dom, "*", []string{"ops@example.org", "ops@Example.ORG"})
			require.NoError(t, err)
			require.Equal(t, rule, again)

			token := b.linkToken("ops@example.org", "/email-forwarding/confirm")
			r := newOpenAPIClient(t, b.srv.URL).sendJSON(http.MethodPost, "/api/email-forwarding/confirm", map[string]any{"token": token})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			f, err = client.Domains.EmailForwarding(ctx, dom)
			require.NoError(t, err)
			require.Len(t, f.Rules, 1)
			require.Equal(t, rule.ID, f.Rules[0].ID)
			require.Equal(t, []sdk.ForwardingDestination{{Address: "ops@example.org", Verified: true}}, f.Rules[0].Destinations)

			// Refusals come in the service's words, and store nothing.
			for _, tc := range []struct {
				alias        string
				destinations []string
				status       int
				code, msg    string
			}{
				{"sales", elevenAddresses(), http.StatusUnprocessableEntity, sdk.CodeInvalid, "A rule forwards to at most 10 addresses"},
				{"sales", nil, http.StatusUnprocessableEntity, sdk.CodeInvalid, "Name at least one address to forward to"},
				{"sales", []string{"me@acme-mail.inf.nz"}, http.StatusUnprocessableEntity, sdk.CodeInvalid, "which would send mail round in a loop"},
				{"sa\tles", []string{"me@example.org"}, http.StatusUnprocessableEntity, sdk.CodeInvalid, "Use letters, digits, dots, hyphens, underscores or plus signs"},
				{"*", []string{"me@example.org"}, http.StatusConflict, sdk.CodeConflict, "This alias already has a rule"},
			} {
				_, err := client.Domains.AddForwardingRule(ctx, dom, tc.alias, tc.destinations)
				apiErr := sdkError(t, err)
				require.Equal(t, tc.status, apiErr.StatusCode, "%q %v: %v", tc.alias, tc.destinations, err)
				require.Equal(t, tc.code, apiErr.Code)
				require.Contains(t, apiErr.Message, tc.msg)
			}
			f, err = client.Domains.EmailForwarding(ctx, dom)
			require.NoError(t, err)
			require.Len(t, f.Rules, 1, "nothing stored")

			// Another registrar's domain: no such domain.
			_, otherKey := b.account("otherfwd", "registrar")
			other := sdk.NewClient(otherKey, sdk.WithBaseURL(b.srv.URL), sdk.WithMaxRetries(0))
			_, err = other.Domains.EmailForwarding(ctx, dom)
			require.True(t, sdk.IsNotFound(err), "%v", err)
			_, err = other.Domains.SetEmailForwarding(ctx, dom, false, false)
			require.True(t, sdk.IsNotFound(err), "%v", err)
			_, err = other.Domains.AddForwardingRule(ctx, dom, "x", []string{"x@example.org"})
			require.True(t, sdk.IsNotFound(err), "%v", err)
			require.True(t, sdk.IsNotFound(other.Domains.DeleteForwardingRule(ctx, dom, rule.ID)))
			_, err = other.Domains.ForwardingLog(ctx, dom)
			require.True(t, sdk.IsNotFound(err), "%v", err)
			noKey := sdk.NewClient("", sdk.WithBaseURL(b.srv.URL), sdk.WithMaxRetries(0))
			_, err = noKey.Domains.EmailForwarding(ctx, dom)
			require.Equal(t, http.StatusUnauthorized, sdkError(t, err).StatusCode)

			entries, err := client.Domains.ForwardingLog(ctx, dom)
			require.NoError(t, err)
			require.Empty(t, entries, "nothing forwarded: the mail role does not run here")

			require.NoError(t, client.Domains.DeleteForwardingRule(ctx, dom, rule.ID))
			err = client.Domains.DeleteForwardingRule(ctx, dom, rule.ID)
			require.True(t, sdk.IsNotFound(err), "%v", err)
			require.Equal(t, "Forwarding rule not found", sdkError(t, err).Message)

			f, err = client.Domains.SetEmailForwarding(ctx, dom, false, false)
			require.NoError(t, err)
			require.False(t, f.Enabled)
			require.Empty(t, f.Rules)
			records, err = client.DNS.List(ctx, dom)
			require.NoError(t, err)
			for _, r := range records {
				require.NotContains(t, []string{"MX", "TXT"}, r.Type, "off removes forwarding's records: %+v", r)
			}
		})
	}
}
