package server_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

// TestLookAlikeAndInvalidNamesAreRefused: invalid or mixed-script punycode
// labels and hyphens in the third and fourth places do not register,
// through /api or /v1, and nothing is charged (finding 9).
func TestLookAlikeAndInvalidNamesAreRefused(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts)
			web, key := registrar(t, ts, "reseller")
			r := web.do("POST", "/api/wallet/deposit", map[string]any{"amount": 100})
			require.Equal(t, http.StatusCreated, r.status, r.raw)

			for label, message := range map[string]string{
				"xn--zz":         "Domain name starting with xn-- must be a valid internationalized domain name",
				"xn--80ak6aa92e": "Domain name cannot mix letters of different scripts or imitate Latin letters",
				"xn--pple-43d":   "Domain name cannot mix letters of different scripts or imitate Latin letters",
				"ab--cd": "Domain name can only contain letters, numbers, and hyphens. It cannot start or end " +
					"with a hyphen or contain consecutive hyphens.",
			} {
				r = web.do("POST", "/api/domains", map[string]any{"name": label, "extension": ".inf.nz"})
				require.Equal(t, http.StatusUnprocessableEntity, r.status, "%s: %s", label, r.raw)
				require.Equal(t, message, r.body["error"], label)
				r = v1(t, ts, key, "POST", "/v1/domains/register", map[string]any{"domain": label + ".inf.nz"})
				require.Equal(t, http.StatusUnprocessableEntity, r.status, "%s: %s", label, r.raw)
				require.Equal(t, "invalid", problemCode(t, r), label)
			}
			require.Equal(t, 0, countRows(t, ts.dbURL, "SELECT count(*) FROM domains"))
			require.Equal(t, 1, countRows(t, ts.dbURL, "SELECT count(*) FROM transactions"), "the deposit only")
			require.EqualValues(t, 100, data(t, web.do("GET", "/api/wallet", nil))["balance"])

			// A valid internationalized name registers.
			r = web.do("POST", "/api/domains", map[string]any{"name": "xn--bcher-kva", "extension": ".inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
		})
	}
}
