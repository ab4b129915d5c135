package api_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/sdk"
)

// A rule is changed in one step, through /api and through the SDK (/v1):
// its alias and addresses from then on, with the checks of adding one; a
// rule of another account's domain is unknown.
func TestEmailForwardingRuleUpdate(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			b := forwardingSetup(t, engine)
			alice, _ := b.account("aliceedit", "user")
			id := b.domain(alice, "alice-edit")
			base := "/api/domains/" + id + "/email-forwarding/rules"
			r := alice.sendJSON(http.MethodPost, base, map[string]any{"alias": "hello", "destinations": []string{"a@dest.example"}})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			ruleID := strconv.FormatInt(int64(dataOf(t, r)["id"].(float64)), 10)
			r = alice.sendJSON(http.MethodPost, base, map[string]any{"alias": "sales", "destinations": []string{"a@dest.example"}})
			require.Equal(t, http.StatusCreated, r.status, r.raw)

			r = alice.sendJSON(http.MethodPut, base+"/"+ruleID, map[string]any{"alias": "Hi", "destinations": []string{"b@dest.example"}})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			rule := dataOf(t, r)
			require.Equal(t, "hi", rule["alias"])
			require.Equal(t, "b@dest.example", rule["destinations"].([]any)[0].(map[string]any)["address"])

			r = alice.sendJSON(http.MethodPut, base+"/"+ruleID, map[string]any{"alias": "sales", "destinations": []string{"b@dest.example"}})
			require.Equal(t, http.StatusConflict, r.status, r.raw)
			r = alice.sendJSON(http.MethodPut, base+"/"+ruleID, map[string]any{"alias": "hi", "destinations": []string{"x@alice-edit.inf.nz"}})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			require.Contains(t, r.body["error"], "loop")
			bob, _ := b.account("bobedit", "user")
			r = bob.sendJSON(http.MethodPut, base+"/"+ruleID, map[string]any{"alias": "mine", "destinations": []string{"b@dest.example"}})
			require.Equal(t, http.StatusNotFound, r.status, r.raw)

			// The same through the SDK.
			_, key := b.account("acmeedit", "registrar")
			client := sdk.NewClient(key, sdk.WithBaseURL(b.srv.URL), sdk.WithBackoff(10*time.Millisecond, 100*time.Millisecond))
			const dom = "acme-edit.inf.nz"
			_, err := client.Domains.Register(ctx, sdk.RegisterRequest{Domain: dom})
			require.NoError(t, err)
			added, err := client.Domains.AddForwardingRule(ctx, dom, "info", []string{"ops@example.org"})
			require.NoError(t, err)
			changed, err := client.Domains.UpdateForwardingRule(ctx, dom, added.ID, "help", []string{"ops@example.org", "desk@example.org"})
			require.NoError(t, err)
			require.Equal(t, added.ID, changed.ID)
			require.Equal(t, "help", changed.Alias)
			require.Len(t, changed.Destinations, 2)
			_, err = client.Domains.UpdateForwardingRule(ctx, dom, added.ID+1000, "x", []string{"ops@example.org"})
			require.True(t, sdk.IsNotFound(err), "%v", err)
		})
	}
}
