package server_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

// tierApplications lists the tier applications as the admin sees them.
func tierApplications(t *testing.T, admin *browser, status string) []map[string]any {
	t.Helper()
	r := admin.do("GET", "/api/admin/tier-applications?status="+status, nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
	var out []map[string]any
	for _, a := range r.body["data"].([]any) {
		out = append(out, a.(map[string]any))
	}
	return out
}

// applicationOf returns the id of username's pending tier application.
func applicationOf(t *testing.T, admin *browser, username string) string {
	t.Helper()
	for _, a := range tierApplications(t, admin, "pending") {
		if a["username"] == username {
			return idOf(t, a["id"])
		}
	}
	t.Fatalf("no pending tier application of %s", username)
	return ""
}

// approveTier approves username's pending tier application.
func approveTier(t *testing.T, admin *browser, username string) {
	t.Helper()
	r := admin.do("POST", "/api/admin/tier-applications/"+applicationOf(t, admin, username)+"/approve", nil)
	require.Equal(t, http.StatusOK, r.status, r.raw)
}

// waitForMailOfKind waits for the worker to record a mail of kind to `to`
// in the outbox and returns it.
func waitForMailOfKind(t *testing.T, admin *browser, kind, to string) map[string]any {
	t.Helper()
	var found map[string]any
	require.Eventually(t, func() bool {
		mails, _ := outboxMails(t, admin, "?limit=100")
		for _, m := range mails {
			if m["kind"] == kind && m["to"] == to {
				found = m
				return true
			}
		}
		return false
	}, 10*time.Second, 20*time.Millisecond)
	return found
}

// Finding 6: a registrar cannot give itself a tier; it applies, works at
// basic meanwhile, and an admin decides.
func TestTierApplications(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts) // creates the admin
			admin := loginAdmin2(t, ts)
			price := func(b *browser) any {
				t.Helper()
				r := b.do("GET", "/api/domains/check?name=example&extension=.inf.nz", nil)
				require.Equal(t, http.StatusOK, r.status, r.raw)
				return data(t, r)["price"]
			}

			// Sign-up asking for enterprise: basic, with a pending application.
			big := newBrowser(t, ts)
			in := signUp("bigco", "registrar")
			in["tier"] = "enterprise"
			r := big.do("POST", "/api/auth/register", in)
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Equal(t, "basic", data(t, r)["tier"])
			key := data(t, r)["apiKey"].(string)
			require.Equal(t, "basic", data(t, big.do("GET", "/api/auth/me", nil))["tier"])
			mine := data(t, big.do("GET", "/api/registrar/tier-application", nil))
			require.Equal(t, "basic", mine["tier"])
			app := mine["application"].(map[string]any)
			require.Equal(t, "enterprise", app["requestedTier"])
			require.Equal(t, "pending", app["status"])
			require.Nil(t, app["decidedAt"])

			// Prices stay basic until an admin approves, on /api and /v1.
			require.Equal(t, 6.0, price(big))
			require.Equal(t, 6.0, v1(t, ts, key, "POST", "/v1/domains/check", map[string]any{"domain": "example.inf.nz"}).body["price"])
			require.Equal(t, "basic", userNamed(t, admin, "bigco")["tier"])

			// One pending application at a time; only higher tiers; registrars only.
			r = big.do("POST", "/api/registrar/tier-application", map[string]any{"tier": "premium"})
			require.Equal(t, http.StatusConflict, r.status, r.raw)
			require.Equal(t, "You already have a tier application pending review", r.body["error"])
			small := signedUp(t, ts, "smallco", "registrar")
			r = small.do("POST", "/api/registrar/tier-application", map[string]any{"tier": "basic"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			r = signedUp(t, ts, "enduser", "user").do("POST", "/api/registrar/tier-application", map[string]any{"tier": "premium"})
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
			require.Nil(t, data(t, small.do("GET", "/api/registrar/tier-application", nil))["application"])
			r = small.do("POST", "/api/registrar/tier-application", map[string]any{"tier": "premium"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			require.Equal(t, "pending", data(t, r)["status"])

			// The applicant cannot approve itself.
			bigApp := applicationOf(t, admin, "bigco")
			r = big.do("POST", "/api/admin/tier-applications/"+bigApp+"/approve", nil)
			require.Equal(t, http.StatusForbidden, r.status, r.raw)
			pending := tierApplications(t, admin, "pending")
			require.Len(t, pending, 2)
			require.Equal(t, "smallco", pending[0]["username"], "newest first")
			require.Equal(t, "basic", pending[1]["currentTier"])
			require.Equal(t, "bigco@example.com", pending[1]["email"])

			// Two admins decide at once: exactly one decision stands.
			admin2 := loginAdmin2(t, ts)
			var wg sync.WaitGroup
			statuses := make([]int, 2)
			for i, b := range []*browser{admin, admin2} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if i == 0 {
						statuses[i] = b.doTimeout("POST", "/api/admin/tier-applications/"+bigApp+"/approve", nil).status
					} else {
						statuses[i] = b.doTimeout("POST", "/api/admin/tier-applications/"+bigApp+"/decline",
							map[string]any{"reason": "Raced."}).status
					}
				}()
			}
			wg.Wait()
			require.ElementsMatch(t, []int{http.StatusOK, http.StatusConflict}, statuses)
			decided := tierApplications(t, admin, "all")
			var bigDecided map[string]any
			for _, a := range decided {
				if idOf(t, a["id"]) == bigApp {
					bigDecided = a
				}
			}
			approved := statuses[0] == http.StatusOK
			if !approved {
				// The decline won the race; approving it later is refused,
				// so apply again and approve that.
				require.Equal(t, "declined", bigDecided["status"])
				require.Equal(t, "basic", data(t, big.do("GET", "/api/auth/me", nil))["tier"])
				r = big.do("POST", "/api/registrar/tier-application", map[string]any{"tier": "enterprise"})
				require.Equal(t, http.StatusCreated, r.status, r.raw)
				approveTier(t, admin, "bigco")
			} else {
				require.Equal(t, "approved", bigDecided["status"])
				require.Equal(t, "root", bigDecided["decidedBy"])
			}
			r = admin.do("POST", "/api/admin/tier-applications/"+bigApp+"/approve", nil)
			require.Equal(t, http.StatusConflict, r.status, r.raw)
			require.Equal(t, "This application has already been decided", r.body["error"])

			// Approved: the tier and its prices apply at once.
			require.Equal(t, "enterprise", data(t, big.do("GET", "/api/auth/me", nil))["tier"])
			require.Equal(t, 4.0, price(big))
			require.Equal(t, 4.0, v1(t, ts, key, "POST", "/v1/domains/check", map[string]any{"domain": "example.inf.nz"}).body["price"])
			mail := waitForMailOfKind(t, admin, "tier_approved", "bigco@example.com")
			require.Equal(t, "Your Enterprise tier application is approved", mail["subject"])

			// Declined, with a reason: the tier stays, the applicant is told why.
			smallApp := applicationOf(t, admin, "smallco")
			r = admin.do("POST", "/api/admin/tier-applications/"+smallApp+"/decline", map[string]any{"reason": ""})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			r = admin.do("POST", "/api/admin/tier-applications/"+smallApp+"/decline", map[string]any{"reason": "Line one\nline two"})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
			r = admin.do("POST", "/api/admin/tier-applications/"+smallApp+"/decline",
				map[string]any{"reason": "Tell us about your monthly volumes first."})
			require.Equal(t, http.StatusOK, r.status, r.raw)
			require.Equal(t, "declined", data(t, r)["status"])
			require.Equal(t, "basic", data(t, small.do("GET", "/api/auth/me", nil))["tier"])
			require.Equal(t, 6.0, price(small))
			mine = data(t, small.do("GET", "/api/registrar/tier-application", nil))
			require.Equal(t, "declined", mine["application"].(map[string]any)["status"])
			require.Equal(t, "Tell us about your monthly volumes first.", mine["application"].(map[string]any)["reason"])
			mail = waitForMailOfKind(t, admin, "tier_declined", "smallco@example.com")
			require.Contains(t, mail["body"], "Our note: Tell us about your monthly volumes first.")
			require.Empty(t, tierApplications(t, admin, "pending"))
			r = admin.do("GET", "/api/admin/tier-applications?status=bogus", nil)
			require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)

			// Every decision is in the audit log, with who decided.
			var actions []string
			for _, e := range auditEntries(t, admin, "") {
				if e["targetType"] == "tier_application" {
					actions = append(actions, fmt.Sprint(e["action"]))
					require.Equal(t, "pending", e["before"].(map[string]any)["status"])
				}
			}
			want := []string{"tier_application.decline", "tier_application.approve"}
			if !approved {
				want = append(want, "tier_application.decline")
			}
			require.Equal(t, want, actions)
		})
	}
}
