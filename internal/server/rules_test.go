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
			refusedWith := func(r reply, messageKey string) {
				t.Helper()
				require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
				require.Equal(t, deposits[messageKey], r.body["error"], "the published message")
			}
			refusedWith(deposit(deposits["minAmount"].(float64)-0.01), "tooSmallMessage")
			require.Equal(t, http.StatusCreated, deposit(deposits["minAmount"].(float64)).status)
			require.Equal(t, http.StatusCreated, deposit(deposits["maxAmount"].(float64)).status)
			refusedWith(deposit(deposits["maxAmount"].(float64)+0.01), "tooLargeMessage")
			refusedWith(deposit(0), "notPositiveMessage")
			refusedWith(deposit(12.345), "decimalsMessage")
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

			// Extensions: the base price floor (also a length rule's registrar
			// price floor), and name lengths and rule lengths within the label's.
			minBase := rules["extensions"].(map[string]any)["minBasePrice"].(float64)
			minLen, maxLen := names["minLength"].(float64), names["maxLength"].(float64)
			extensionNo := 0
			addExtension := func(fields map[string]any) int {
				extensionNo++
				fields["extension"] = fmt.Sprintf(".rules%d.nz", extensionNo)
				fields["description"] = "Rules of the document"
				return admin.do("POST", "/api/domain-extensions", fields).status
			}
			lengthRule := func(min, max float64, registrarPrice any) map[string]any {
				rule := map[string]any{"minLength": min, "maxLength": max, "price": 20}
				if registrarPrice != nil {
					rule["registrarPrice"] = registrarPrice
				}
				return map[string]any{"lengthBasedPricing": []any{rule}}
			}
			require.Equal(t, http.StatusUnprocessableEntity, addExtension(map[string]any{"basePrice": minBase - 0.01}))
			require.Equal(t, http.StatusCreated, addExtension(map[string]any{"basePrice": minBase}))
			require.Equal(t, http.StatusUnprocessableEntity, addExtension(map[string]any{"minNameLength": minLen - 1}))
			require.Equal(t, http.StatusUnprocessableEntity, addExtension(map[string]any{"maxNameLength": maxLen + 1}))
			require.Equal(t, http.StatusCreated, addExtension(map[string]any{"minNameLength": minLen, "maxNameLength": maxLen}))
			require.Equal(t, http.StatusUnprocessableEntity, addExtension(lengthRule(minLen-1, maxLen, nil)))
			require.Equal(t, http.StatusUnprocessableEntity, addExtension(lengthRule(minLen, maxLen+1, nil)))
			require.Equal(t, http.StatusCreated, addExtension(lengthRule(minLen, maxLen, nil)))
			extRules := rules["extensions"].(map[string]any)
			minRegistrar := extRules["minRegistrarPrice"].(float64)
			require.Equal(t, http.StatusUnprocessableEntity, addExtension(lengthRule(minLen, maxLen, minRegistrar-0.01)))
			require.Equal(t, http.StatusCreated, addExtension(lengthRule(minLen, maxLen, minRegistrar)))
			// The settings' bounds: each one beyond is refused, each bound taken.
			bounds := []struct {
				field          string
				refused, taken any
			}{
				{"renewalPeriodDays", extRules["minRenewalPeriodDays"].(float64) - 1, extRules["minRenewalPeriodDays"]},
				{"renewalPeriodDays", extRules["maxRenewalPeriodDays"].(float64) + 1, extRules["maxRenewalPeriodDays"]},
				{"gracePeriodDays", extRules["maxGracePeriodDays"].(float64) + 1, extRules["maxGracePeriodDays"]},
				{"gracePeriodDays", -1, 0},
			}
			for _, b := range bounds {
				require.Equal(t, http.StatusUnprocessableEntity, addExtension(map[string]any{b.field: b.refused}), "%s %v", b.field, b.refused)
				require.Equal(t, http.StatusCreated, addExtension(map[string]any{b.field: b.taken}), "%s %v", b.field, b.taken)
			}
			describe := func(description string) int {
				extensionNo++
				return admin.do("POST", "/api/domain-extensions", map[string]any{
					"extension": fmt.Sprintf(".rules%d.nz", extensionNo), "description": description}).status
			}
			minDesc, maxDesc := int(extRules["minDescriptionLength"].(float64)), int(extRules["maxDescriptionLength"].(float64))
			require.Equal(t, http.StatusUnprocessableEntity, describe(strings.Repeat("d", minDesc-1)))
			require.Equal(t, http.StatusCreated, describe(strings.Repeat("d", minDesc)))
			require.Equal(t, http.StatusUnprocessableEntity, describe(strings.Repeat("d", maxDesc+1)))
			require.Equal(t, http.StatusCreated, describe(strings.Repeat("d", maxDesc)))

			// Accounts: sign-up, login and password change answer each broken
			// bound with the published message, and take each bound itself.
			account := rules["account"].(map[string]any)
			bound := func(key string) int { return int(account[key].(float64)) }
			message := func(key string) string { return account[key].(string) }
			refusal := func(r reply) string {
				t.Helper()
				require.Equal(t, http.StatusUnprocessableEntity, r.status, r.raw)
				return r.body["error"].(string)
			}
			form := func(username, password, fullName string) map[string]any {
				return map[string]any{"username": username, "email": "rules-" + strings.TrimSpace(username) + "@example.com",
					"password": password, "confirmPassword": password, "fullName": fullName, "userType": "user"}
			}
			signUpWith := func(fields map[string]any) reply {
				return newBrowser(t, ts).do("POST", "/api/auth/register", fields)
			}
			okPassword, okName := strings.Repeat("p", bound("minPasswordLength")), "Rules Person"
			short := func(key string) string { return strings.Repeat("s", bound(key)-1) }
			long := func(key string) string { return strings.Repeat("l", bound(key)+1) }

			require.Equal(t, message("usernameTooShortMessage"), refusal(signUpWith(form(short("minUsernameLength"), okPassword, okName))))
			require.Equal(t, message("usernameTooShortMessage"), refusal(signUpWith(form("  "+short("minUsernameLength")+"  ", okPassword, okName))),
				"a username is trimmed before it is counted")
			require.Equal(t, message("usernameTooLongMessage"), refusal(signUpWith(form(long("maxUsernameLength"), okPassword, okName))))
			require.Equal(t, message("usernameCharactersMessage"), refusal(signUpWith(form("rules person", okPassword, okName))))
			require.NotRegexp(t, account["usernamePattern"], "rules person")
			require.Regexp(t, account["usernamePattern"], "Rules.person-1_x")
			require.Equal(t, message("passwordTooShortMessage"), refusal(signUpWith(form("rulesa", short("minPasswordLength"), okName))))
			require.Equal(t, message("passwordTooLongMessage"), refusal(signUpWith(form("rulesb", long("maxPasswordLength"), okName))))
			require.Equal(t, message("fullNameRequiredMessage"), refusal(signUpWith(form("rulesc", okPassword, short("minFullNameLength")))))
			require.Equal(t, message("fullNameRequiredMessage"), refusal(signUpWith(form("rulesd", okPassword, " "+short("minFullNameLength")+" "))),
				"a full name is trimmed before it is counted")
			require.Equal(t, message("fullNameTooLongMessage"), refusal(signUpWith(form("rulese", okPassword, long("maxFullNameLength")))))
			badEmail := form("rulesf", okPassword, okName)
			badEmail["email"] = "not-an-address"
			require.Equal(t, message("emailMessage"), refusal(signUpWith(badEmail)))
			require.Equal(t, message("emailMessage"), refusal(newBrowser(t, ts).do("POST", "/api/auth/forgot-password",
				map[string]any{"email": "not-an-address"})))
			mismatch := form("rulesg", okPassword, okName)
			mismatch["confirmPassword"] = okPassword + "x"
			require.Equal(t, message("passwordsMismatchMessage"), refusal(signUpWith(mismatch)))

			// Each bound itself is taken: the shortest fields, then the longest.
			shortest := strings.Repeat("m", bound("minUsernameLength"))
			r = signUpWith(form(shortest, okPassword, strings.Repeat("f", bound("minFullNameLength"))))
			require.Equal(t, http.StatusCreated, r.status, r.raw)
			r = signUpWith(form("Rules.x-"+strings.Repeat("y", bound("maxUsernameLength")-8), strings.Repeat("q", bound("maxPasswordLength")),
				strings.Repeat("g", bound("maxFullNameLength"))))
			require.Equal(t, http.StatusCreated, r.status, r.raw)

			// Login checks the same username and password bounds first.
			login := func(username, password string) reply {
				return newBrowser(t, ts).do("POST", "/api/auth/login", map[string]any{"username": username, "password": password})
			}
			require.Equal(t, message("usernameTooShortMessage"), refusal(login(short("minUsernameLength"), okPassword)))
			require.Equal(t, message("passwordTooShortMessage"), refusal(login(shortest, short("minPasswordLength"))))
			require.Equal(t, message("passwordTooLongMessage"), refusal(login(shortest, long("maxPasswordLength"))))
			user := newBrowser(t, ts)
			r = user.do("POST", "/api/auth/login", map[string]any{"username": shortest, "password": okPassword})
			require.Equal(t, http.StatusOK, r.status, r.raw)

			// A password change checks the new password the same way.
			change := func(next, confirm string) reply {
				return user.do("POST", "/api/auth/change-password",
					map[string]any{"currentPassword": okPassword, "newPassword": next, "confirmPassword": confirm})
			}
			require.Equal(t, message("passwordTooShortMessage"), refusal(change(short("minPasswordLength"), short("minPasswordLength"))))
			require.Equal(t, message("passwordTooLongMessage"), refusal(change(long("maxPasswordLength"), long("maxPasswordLength"))))
			next := strings.Repeat("n", bound("minPasswordLength"))
			require.Equal(t, message("passwordsMismatchMessage"), refusal(change(next, next+"x")))
			r = change(next, next)
			require.Equal(t, http.StatusOK, r.status, r.raw)
		})
	}
}
