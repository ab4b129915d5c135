package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dbtest"
)

// GET /api/rules says what the services decide: each published value is
// checked against the behaviour of the operation that owns it, so a rule
// changed in one place and not the other fails here.
func TestRulesDocumentMatchesTheServices(t *testing.T) {
	t.Parallel()
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			t.Parallel()
			ts := start(t, engine)
			seedCatalog(t, ts) // .inf.nz at $8, premium cloud.inf.nz at $30
			admin := loginAdmin2(t, ts)
			r := newBrowser(t, ts).do("GET", "/api/rules", nil) // public
			require.Equal(t, http.StatusOK, r.status, r.raw)
			rules := data(t, r)

			// Tiers: a registrar on each pays the tier's price, and its premium discount.
			tiers := rules["registrarTiers"].([]any)
			require.Len(t, tiers, 3)
			for i, raw := range tiers {
				tier := raw.(map[string]any)
				name := fmt.Sprintf("tier%d", i)
				b := signedUp(t, ts, name, "registrar")
				r := admin.do("PATCH", "/api/admin/users/"+idOf(t, userNamed(t, admin, name)["id"]), map[string]any{"tier": tier["key"]})
				require.Equal(t, http.StatusOK, r.status, r.raw)
				check := data(t, b.do("GET", "/api/domains/check?name=example&extension=.inf.nz", nil))
				require.Equal(t, tier["pricePerDomain"], check["price"], "tier %v", tier["key"])
				premium := data(t, b.do("GET", "/api/domains/check?name=cloud&extension=.inf.nz", nil))
				require.InDelta(t, 30*(100-tier["premiumDiscountPercent"].(float64))/100, premium["price"], 0.001, "tier %v", tier["key"])
				require.NotEmpty(t, tier["features"])
			}
			require.Nil(t, tiers[2].(map[string]any)["monthlyDomains"], "enterprise is unlimited")

			// Deposits: the bounds are the service's, inclusive.
			deposits := rules["deposits"].(map[string]any)
			alice := signedUp(t, ts, "alice", "user")
			deposit := func(amount float64) reply {
				return alice.do("POST", "/api/wallet/deposit", map[string]any{"amount": amount, "paymentMethod": "credit_card"})
			}
			require.Equal(t, http.StatusUnprocessableEntity, deposit(deposits["minAmount"].(float64)-0.01).status)
			require.Equal(t, http.StatusCreated, deposit(deposits["minAmount"].(float64)).status)
			require.Equal(t, http.StatusCreated, deposit(deposits["maxAmount"].(float64)).status)
			require.Equal(t, http.StatusUnprocessableEntity, deposit(deposits["maxAmount"].(float64)+0.01).status)
			require.ElementsMatch(t, []any{"credit_card", "paypal", "bank_transfer", "upi"}, deposits["methods"])

			// Labels: the published messages are the ones the check answers.
			names := rules["domainName"].(map[string]any)
			checkError := func(label string) string {
				r := alice.do("GET", "/api/domains/check?extension=.inf.nz&name="+label, nil)
				require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
				return r.body["error"].(string)
			}
			require.Equal(t, names["charactersMessage"], checkError("-bad"))
			require.Equal(t, names["tooLongMessage"], checkError(strings.Repeat("a", int(names["maxLength"].(float64))+1)))
			require.Equal(t, http.StatusOK, alice.do("GET", "/api/domains/check?extension=.inf.nz&name="+
				strings.Repeat("a", int(names["maxLength"].(float64))), nil).status)

			// Premium names: bounds and categories.
			premium := rules["premium"].(map[string]any)
			addPremium := func(name string, price float64, category string) int {
				return admin.do("POST", "/api/admin/premium-domains", map[string]any{"name": name, "extension": ".inf.nz",
					"price": price, "category": category}).status
			}
			for i, c := range premium["categories"].([]any) {
				require.Equal(t, http.StatusCreated, addPremium(fmt.Sprintf("cat%d", i), premium["minPrice"].(float64), c.(string)), c)
			}
			require.Equal(t, http.StatusUnprocessableEntity, addPremium("cheap", premium["minPrice"].(float64)-1, "general"))
			require.Equal(t, http.StatusCreated, addPremium("dear", premium["maxPrice"].(float64), "general"))
			require.Equal(t, http.StatusUnprocessableEntity, addPremium("dearer", premium["maxPrice"].(float64)+1, "general"))
			require.Equal(t, http.StatusUnprocessableEntity, addPremium("other", 50, "other"))

			// DNS: the TTL floor of the records service.
			dns := rules["dns"].(map[string]any)
			require.Equal(t, http.StatusCreated, alice.do("POST", "/api/wallet/deposit",
				map[string]any{"amount": 100, "paymentMethod": "credit_card"}).status)
			r = alice.do("POST", "/api/domains", map[string]any{"name": "rules", "extension": ".inf.nz"})
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			domainID := idOf(t, data(t, r)["domain"].(map[string]any)["id"])
			record := func(ttl float64) int {
				return alice.do("POST", "/api/domains/"+domainID+"/dns",
					map[string]any{"type": "A", "name": "www", "content": "192.0.2.1", "ttl": ttl}).status
			}
			require.Equal(t, http.StatusUnprocessableEntity, record(dns["minTtl"].(float64)-1))
			require.Equal(t, http.StatusCreated, record(dns["minTtl"].(float64)))
		})
	}
}
