package catalog_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/apperr"
	"github.com/nameport/nameport/internal/catalog"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
	"github.com/nameport/nameport/internal/registration"
)

var secret = []byte(strings.Repeat("k", 32))

func ptr[T any](v T) *T { return &v }

type bundle struct {
	svc *catalog.Service
	db  *db.DB
	now time.Time
}

func setup(t *testing.T, d *db.DB) bundle {
	t.Helper()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	svc, err := catalog.NewService(d, registration.NewNames(d, nil), catalog.Options{Secret: secret, Now: func() time.Time { return now }})
	require.NoError(t, err)
	require.NoError(t, svc.Load(context.Background()))
	return bundle{svc: svc, db: d, now: now}
}

func validExtension(ext string) catalog.ExtensionInput {
	return catalog.ExtensionInput{Extension: ptr(ext), Description: ptr("A test extension")}
}

func requireInvalid(t *testing.T, err error, msg string) {
	t.Helper()
	require.Equal(t, apperr.Invalid, apperr.Code(err), "%v", err)
	require.Equal(t, msg, apperr.Message(err))
}

func registerDomain(t *testing.T, d *db.DB, name, ext string) {
	t.Helper()
	dbtest.Domain(t, d, name, ext, time.Now())
}

func TestExtensionValidation(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		rules := func(r ...catalog.RuleInput) *[]catalog.RuleInput { return &r }
		tests := []struct {
			change func(*catalog.ExtensionInput)
			want   string
		}{
			{func(in *catalog.ExtensionInput) { in.Extension = ptr("") }, "Domain extension is required"},
			{func(in *catalog.ExtensionInput) { in.Extension = ptr(".com") }, "Extension must be in format like '.example.com'"},
			{func(in *catalog.ExtensionInput) { in.Extension = ptr(".bad_label.tld") }, "Extension must be in format like '.example.com'"},
			{func(in *catalog.ExtensionInput) { in.BasePriceCents = ptr[int64](99) }, "Base price must be at least 1"},
			{func(in *catalog.ExtensionInput) { in.Description = ptr(" abc ") }, "Description is required"},
			{func(in *catalog.ExtensionInput) { in.MinNameLength = ptr(0) }, "Name lengths must be between 1 and 63"},
			{func(in *catalog.ExtensionInput) { in.MaxNameLength = ptr(64) }, "Name lengths must be between 1 and 63"},
			{func(in *catalog.ExtensionInput) { in.MinNameLength, in.MaxNameLength = ptr(10), ptr(5) }, "Minimum name length cannot exceed the maximum"},
			{func(in *catalog.ExtensionInput) { in.AllowedCharacters = ptr("z-a") }, "Allowed characters must be lower-case letters, digits and hyphens, with ranges like a-z"},
			{func(in *catalog.ExtensionInput) { in.AllowedCharacters = ptr("A-Z") }, "Allowed characters must be lower-case letters, digits and hyphens, with ranges like a-z"},
			{func(in *catalog.ExtensionInput) { in.RenewalPeriodDays = ptr(29) }, "Renewal period must be between 30 and 3650 days"},
			{func(in *catalog.ExtensionInput) { in.GracePeriodDays = ptr(-1) }, "Grace period must be between 0 and 365 days"},
			{func(in *catalog.ExtensionInput) { in.RenewalPriceCents = ptr[int64](-1) }, "Renewal price cannot be negative"},
			{func(in *catalog.ExtensionInput) { in.DNSProvider = ptr("godaddy") }, "DNS provider must be one of custom, cloudflare, route53, digitalocean, gcp, azure"},
			{func(in *catalog.ExtensionInput) { in.DNSNameservers = &[]string{"ns1.example.com", "not a host"} }, `Nameserver "not a host" is not a valid host name`},
			{func(in *catalog.ExtensionInput) { in.AdminEmail = ptr("nobody@") }, "Admin email is not a valid email address"},
			{func(in *catalog.ExtensionInput) {
				in.Rules = rules(catalog.RuleInput{MinLength: 1, MaxLength: 3, PriceCents: 2000}, catalog.RuleInput{MinLength: 3, MaxLength: 5, PriceCents: 1000})
			}, "There is an overlap with an existing rule. Each domain length must be covered by only one rule."},
			{func(in *catalog.ExtensionInput) {
				in.Rules = rules(catalog.RuleInput{MinLength: 4, MaxLength: 2, PriceCents: 100})
			}, "A rule's minimum length cannot exceed its maximum"},
			{func(in *catalog.ExtensionInput) {
				in.Rules = rules(catalog.RuleInput{MinLength: 1, MaxLength: 64, PriceCents: 100})
			}, "Rule lengths must be between 1 and 63"},
			{func(in *catalog.ExtensionInput) { in.Rules = rules(catalog.RuleInput{MinLength: 1, MaxLength: 3}) }, "Rule price must be greater than 0"},
			{func(in *catalog.ExtensionInput) {
				in.Rules = rules(catalog.RuleInput{MinLength: 1, MaxLength: 3, PriceCents: 100, RegistrarPriceCents: ptr[int64](50)})
			}, "Registrar price must be at least 1"},
			{func(in *catalog.ExtensionInput) {
				in.Rules = rules(catalog.RuleInput{MinLength: 1, MaxLength: 3, PriceCents: 100, IsPromotion: true, PromotionStart: b.now, PromotionEnd: b.now})
			}, "A promotion must end after it starts"},
		}
		for _, tt := range tests {
			in := validExtension(".test.nz")
			tt.change(&in)
			_, err := b.svc.CreateExtension(context.Background(), in, nil)
			requireInvalid(t, err, tt.want)
		}
		require.Empty(t, b.svc.Extensions(true), "refused input stores nothing")
	})
}

func TestExtensionLifecycle(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		in := validExtension("Test.NZ")
		in.Rules = &[]catalog.RuleInput{{MinLength: 4, MaxLength: 63, PriceCents: 700}, {MinLength: 1, MaxLength: 3, PriceCents: 2000}}
		e, err := b.svc.CreateExtension(ctx, in, nil)
		require.NoError(t, err)
		require.Equal(t, ".test.nz", e.Extension)
		// Spec defaults.
		require.EqualValues(t, 800, e.BasePriceCents)
		require.True(t, e.Active)
		require.Equal(t, 1, e.MinNameLength)
		require.Equal(t, 63, e.MaxNameLength)
		require.Equal(t, "a-z0-9-", e.AllowedCharacters)
		require.Equal(t, 365, e.RenewalPeriodDays)
		require.Equal(t, 30, e.GracePeriodDays)
		require.Equal(t, "custom", e.DNSProvider)
		require.EqualValues(t, 800, e.RenewalCents(), "renewal follows the base price")

		loaded := b.svc.ActiveExtension(".test.nz")
		require.NotNil(t, loaded)
		require.Equal(t, []int{1, 4}, []int{loaded.Rules[0].MinLength, loaded.Rules[1].MinLength}, "rules sorted by minimum length")

		_, err = b.svc.CreateExtension(ctx, validExtension(".TEST.nz"), nil)
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		require.Equal(t, "Extension .test.nz already exists", apperr.Message(err))

		// A partial update changes only what it sends.
		e, err = b.svc.UpdateExtension(ctx, e.ID, catalog.ExtensionInput{Description: ptr("Changed description"), Active: ptr(false)}, nil)
		require.NoError(t, err)
		require.Equal(t, "Changed description", e.Description)
		require.Len(t, e.Rules, 2)
		require.Nil(t, b.svc.ActiveExtension(".test.nz"), "inactive extensions cannot be searched")
		require.Len(t, b.svc.Extensions(true), 1)
		require.Empty(t, b.svc.Extensions(false))

		e, err = b.svc.UpdateExtension(ctx, e.ID, catalog.ExtensionInput{Active: ptr(true), Rules: &[]catalog.RuleInput{}}, nil)
		require.NoError(t, err)
		require.Empty(t, b.svc.ActiveExtension(".test.nz").Rules, "an empty rule list removes the rules")
		_, err = b.svc.UpdateExtension(ctx, 99999, catalog.ExtensionInput{Active: ptr(true)}, nil)
		require.Equal(t, apperr.NotFound, apperr.Code(err))

		// With a registered domain, it can be neither renamed nor deleted.
		registerDomain(t, d, "taken", ".test.nz")
		_, err = b.svc.UpdateExtension(ctx, e.ID, catalog.ExtensionInput{Extension: ptr(".other.nz")}, nil)
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		err = b.svc.DeleteExtension(ctx, e.ID, nil)
		require.Equal(t, apperr.Conflict, apperr.Code(err))
		require.Contains(t, apperr.Message(err), "deactivate it instead")

		other, err := b.svc.CreateExtension(ctx, validExtension(".spare.nz"), nil)
		require.NoError(t, err)
		_, err = b.svc.CreatePremium(ctx, catalog.PremiumInput{Name: ptr("gold"), Extension: ptr(".spare.nz"), PriceCents: ptr[int64](5000)}, nil)
		require.NoError(t, err)
		require.NoError(t, b.svc.DeleteExtension(ctx, other.ID, nil))
		require.Empty(t, b.svc.PremiumDomains(true), "its premium names go with it")
		require.Equal(t, apperr.NotFound, apperr.Code(b.svc.DeleteExtension(ctx, other.ID, nil)))
	})
}

func TestDNSCredentialsAreSealedAtRest(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		in := validExtension(".cred.nz")
		in.DNSProvider, in.DNSAPIKey, in.DNSAPISecret = ptr("cloudflare"), ptr("cf-key-1234567"), ptr("cf-secret-7654321")
		e, err := b.svc.CreateExtension(ctx, in, nil)
		require.NoError(t, err)

		var key, sec string
		require.NoError(t, d.Bun.NewRaw("SELECT dns_api_key_sealed, dns_api_secret_sealed FROM extensions WHERE id = ?", e.ID).Scan(ctx, &key, &sec))
		require.NotContains(t, key, "cf-key")
		require.NotContains(t, sec, "cf-secret")
		gotKey, gotSecret, err := b.svc.DNSCredentials(b.svc.ActiveExtension(".cred.nz"))
		require.NoError(t, err)
		require.Equal(t, "cf-key-1234567", gotKey)
		require.Equal(t, "cf-secret-7654321", gotSecret)

		_, err = b.svc.UpdateExtension(ctx, e.ID, catalog.ExtensionInput{DNSAPIKey: ptr("")}, nil)
		require.NoError(t, err)
		gotKey, gotSecret, err = b.svc.DNSCredentials(b.svc.ActiveExtension(".cred.nz"))
		require.NoError(t, err)
		require.Empty(t, gotKey, "an empty key removes it")
		require.Equal(t, "cf-secret-7654321", gotSecret, "an omitted secret stays")
	})
}

func TestPremiumDomains(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		_, err := b.svc.CreateExtension(ctx, validExtension(".inf.nz"), nil)
		require.NoError(t, err)
		valid := func() catalog.PremiumInput {
			return catalog.PremiumInput{Name: ptr("Cloud"), Extension: ptr("inf.nz"), PriceCents: ptr[int64](50000)}
		}
		bad := []struct {
			change func(*catalog.PremiumInput)
			want   string
		}{
			{func(in *catalog.PremiumInput) { in.Name = ptr("") }, "Domain name is required"},
			{func(in *catalog.PremiumInput) { in.Name = ptr("cloud.inf.nz") }, "Enter the name without its extension"},
			{func(in *catalog.PremiumInput) { in.Name = ptr("-cloud") }, "Domain name can only contain letters, numbers, and hyphens. It cannot start or end with a hyphen or contain consecutive hyphens."},
			{func(in *catalog.PremiumInput) { in.Name = ptr("www") }, "www is a reserved name and cannot be sold"},
			{func(in *catalog.PremiumInput) { in.Extension = ptr(".nope.nz") }, "Extension .nope.nz is not offered"},
			{func(in *catalog.PremiumInput) { in.PriceCents = ptr[int64](999) }, "Premium domain price must be at least 10"},
			{func(in *catalog.PremiumInput) { in.PriceCents = ptr[int64](1_000_001) }, "Premium domain price must be at most 10000"},
			{func(in *catalog.PremiumInput) { in.DiscountPercentage = ptr(101) }, "Discount must be between 0 and 100 percent"},
			{func(in *catalog.PremiumInput) { in.DiscountValidUntil = ptr(b.now.Add(-time.Hour)) }, "The discount end date cannot be in the past"},
			{func(in *catalog.PremiumInput) { in.Category = ptr("weapons") }, "Category must be one of general, business, technology, education, entertainment, health, finance, travel, sports, lifestyle"},
		}
		for _, tt := range bad {
			in := valid()
			tt.change(&in)
			_, err := b.svc.CreatePremium(ctx, in, nil)
			requireInvalid(t, err, tt.want)
		}

		in := valid()
		in.Keywords = &[]string{" cloud ", "", "hosting", "cloud"}
		p, err := b.svc.CreatePremium(ctx, in, nil)
		require.NoError(t, err)
		require.Equal(t, "cloud", p.Name, "stored lower case")
		require.Equal(t, ".inf.nz", p.Extension)
		require.True(t, p.IsAvailable, "available by default")
		require.Equal(t, "general", p.Category)
		require.Equal(t, []string{"cloud", "hosting"}, p.Keywords, "keywords trimmed, without duplicates")

		_, err = b.svc.CreatePremium(ctx, valid(), nil)
		require.Equal(t, apperr.Conflict, apperr.Code(err))

		// A toggle sends one field.
		p, err = b.svc.UpdatePremium(ctx, p.ID, catalog.PremiumInput{Featured: ptr(true)}, nil)
		require.NoError(t, err)
		require.True(t, p.Featured)
		require.EqualValues(t, 50000, p.PriceCents)
		p, err = b.svc.UpdatePremium(ctx, p.ID, catalog.PremiumInput{DiscountPercentage: ptr(20), DiscountValidUntil: ptr(b.now.Add(48 * time.Hour))}, nil)
		require.NoError(t, err)
		require.EqualValues(t, 40000, b.svc.QuotePremium(p, catalog.Buyer{}).PriceCents)
		p, err = b.svc.UpdatePremium(ctx, p.ID, catalog.PremiumInput{DiscountValidUntil: ptr(time.Time{})}, nil)
		require.NoError(t, err)
		require.True(t, p.DiscountValidUntil.IsZero(), "a zero date clears the end")

		second, err := b.svc.CreatePremium(ctx, catalog.PremiumInput{Name: ptr("apps"), Extension: ptr(".inf.nz"), PriceCents: ptr[int64](2000)}, nil)
		require.NoError(t, err)
		require.Equal(t, []string{"cloud", "apps"}, names(b.svc.PremiumDomains(false)), "featured first")

		_, err = b.svc.BulkPremium(ctx, catalog.BulkMakeUnavailable, nil, nil)
		requireInvalid(t, err, "Please select at least one domain first")
		_, err = b.svc.BulkPremium(ctx, "explode", []int64{p.ID}, nil)
		require.Equal(t, apperr.Invalid, apperr.Code(err))
		n, err := b.svc.BulkPremium(ctx, catalog.BulkMakeUnavailable, []int64{p.ID, second.ID, 99999}, nil)
		require.NoError(t, err)
		require.Equal(t, 2, n)
		require.Empty(t, b.svc.PremiumDomains(false), "Reserved names are not listed publicly")
		require.Len(t, b.svc.PremiumDomains(true), 2)
		n, err = b.svc.BulkPremium(ctx, catalog.BulkDelete, []int64{second.ID}, nil)
		require.NoError(t, err)
		require.Equal(t, 1, n)
		require.NoError(t, b.svc.DeletePremium(ctx, p.ID, nil))
		require.Equal(t, apperr.NotFound, apperr.Code(b.svc.DeletePremium(ctx, p.ID, nil)))
		require.Empty(t, b.svc.PremiumDomains(true))
	})
}

func names(ps []*catalog.PremiumDomain) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

func TestCheck(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		require.NoError(t, b.svc.SeedDemo(ctx))
		strict := validExtension(".letters.nz")
		strict.MinNameLength, strict.MaxNameLength, strict.AllowedCharacters = ptr(3), ptr(10), ptr("a-z")
		_, err := b.svc.CreateExtension(ctx, strict, nil)
		require.NoError(t, err)
		registerDomain(t, d, "taken", ".inf.nz")
		user, enterprise := catalog.Buyer{}, catalog.Buyer{Tier: "enterprise"}

		tests := []struct {
			name, ext string
			buyer     catalog.Buyer
			available bool
			reason    string
			premium   bool
			price     int64
		}{
			{"free-name", ".inf.nz", user, true, "", false, 800},
			{"Free-Name", ".INF.NZ", user, true, "", false, 800},
			{"free-name", ".inf.nz", enterprise, true, "", false, 400},
			{"ab", ".inf.nz", user, true, "", false, 2500},
			{"taken", ".inf.nz", user, false, catalog.ReasonRegistered, false, 800},
			{"TAKEN", ".inf.nz", user, false, catalog.ReasonRegistered, false, 800},
			{"taken", ".biz.ee", user, true, "", false, 800},
			{"whois", ".biz.ee", user, false, catalog.ReasonReserved, false, 800},
			{"shop", ".biz.ee", user, true, "", true, 28000},
			{"shop", ".biz.ee", enterprise, true, "", true, 22400},
			{"home", ".inf.nz", user, false, catalog.ReasonPremiumReserved, true, 60000},
			{"sport", ".biz.ee", user, true, "", true, 22000},
			{"words", ".letters.nz", user, true, "", false, 800},
		}
		for _, tt := range tests {
			a, err := b.svc.Check(ctx, tt.name, tt.ext, tt.buyer)
			require.NoError(t, err, tt.name)
			require.Equal(t, strings.ToLower(tt.name), a.Name)
			require.Equal(t, tt.available, a.Available, "%s%s", tt.name, tt.ext)
			require.Equal(t, tt.reason, a.Reason, "%s%s", tt.name, tt.ext)
			require.Equal(t, tt.premium, a.Quote.IsPremium, "%s%s", tt.name, tt.ext)
			require.Equal(t, tt.price, a.Quote.PriceCents, "%s%s", tt.name, tt.ext)
		}

		refused := []struct{ name, ext, want string }{
			{"", ".inf.nz", "Domain name is required"},
			{"-bad-", ".inf.nz", "Domain name can only contain letters, numbers, and hyphens. It cannot start or end with a hyphen or contain consecutive hyphens."},
			{"dot.ted", ".inf.nz", "Domain name can only contain letters, numbers, and hyphens. It cannot start or end with a hyphen or contain consecutive hyphens."},
			{strings.Repeat("a", 64), ".inf.nz", "Domain name must be at most 63 characters"},
			{"fine", ".com", "Extension must be one of .biz.ee, .inf.nz, .letters.nz, .orgn.uk"},
			{"fine", "", "Extension must be one of .biz.ee, .inf.nz, .letters.nz, .orgn.uk"},
			{"ab", ".letters.nz", "Names under .letters.nz must be 3 to 10 characters long"},
			{"abc123", ".letters.nz", "Names under .letters.nz may only use the characters a-z"},
		}
		for _, tt := range refused {
			_, err := b.svc.Check(ctx, tt.name, tt.ext, user)
			requireInvalid(t, err, tt.want)
		}
	})
}

func TestSnapshotReachesOtherNodes(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		writer := setup(t, d)
		reader := setup(t, d)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go reader.svc.Watch(ctx, 10*time.Millisecond, discard)

		_, err := writer.svc.CreateExtension(context.Background(), validExtension(".node.nz"), nil)
		require.NoError(t, err)
		require.NotNil(t, writer.svc.ActiveExtension(".node.nz"), "the writer sees its change at once")
		require.Eventually(t, func() bool { return reader.svc.ActiveExtension(".node.nz") != nil }, 5*time.Second, 10*time.Millisecond)
	})
}

func TestSeedDemo(t *testing.T) {
	t.Parallel()
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		b := setup(t, d)
		ctx := context.Background()
		require.NoError(t, b.svc.SeedDemo(ctx))
		require.NoError(t, b.svc.SeedDemo(ctx), "seeding twice changes nothing")
		require.Len(t, b.svc.Extensions(false), 3)
		all := b.svc.PremiumDomains(true)
		require.GreaterOrEqual(t, len(all), 12)
		categories, featured, discounted, reserved := map[string]bool{}, 0, 0, 0
		for _, p := range all {
			categories[p.Category] = true
			if p.Featured {
				featured++
			}
			if p.DiscountLive(b.now) {
				discounted++
			}
			if !p.IsAvailable {
				reserved++
			}
		}
		require.GreaterOrEqual(t, len(categories), 5)
		require.Positive(t, featured)
		require.Positive(t, discounted)
		require.Equal(t, 1, reserved)
	})
}

func TestReservedNamesAreSorted(t *testing.T) {
	t.Parallel()
	require.IsIncreasing(t, catalog.ReservedNames, "IsReserved binary-searches the list")
	for _, n := range []string{"www", "mail", "nic", "whois", "rdap", "admin", "api", "ns1", "ns2"} {
		require.True(t, catalog.IsReserved(n), n)
	}
	require.False(t, catalog.IsReserved("shop"))
}
