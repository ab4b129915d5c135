package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/nameport/nameport/internal/db"
)

func ptr[T any](v T) *T { return &v }

// SeedDemo fills an empty catalog with the three extensions and a set of
// premium names, through the same validated paths admins use. A catalog that
// has any extension is left alone.
func (s *Service) SeedDemo(ctx context.Context) error {
	if len(s.current().extensions) > 0 {
		return nil
	}
	now := s.clock()
	day := 24 * time.Hour
	exts := []ExtensionInput{
		{Extension: ptr(".inf.nz"), Description: ptr("For information sites, projects and personal pages."),
			DNSNameservers: &[]string{"ns1.nameport.test", "ns2.nameport.test"},
			Rules:          &[]RuleInput{{MinLength: 1, MaxLength: 3, PriceCents: 2500, RegistrarPriceCents: ptr[int64](2000)}}},
		{Extension: ptr(".biz.ee"), Description: ptr("For businesses, shops and services."),
			DNSNameservers: &[]string{"ns1.nameport.test", "ns2.nameport.test"},
			Rules: &[]RuleInput{
				{MinLength: 1, MaxLength: 2, PriceCents: 3000, RegistrarPriceCents: ptr[int64](2400)},
				{MinLength: 3, MaxLength: 3, PriceCents: 1500, RegistrarPriceCents: ptr[int64](1200)},
			}},
		{Extension: ptr(".orgn.uk"), Description: ptr("For organisations, clubs and communities."),
			DNSNameservers: &[]string{"ns1.nameport.test", "ns2.nameport.test"},
			Rules: &[]RuleInput{
				{MinLength: 1, MaxLength: 3, PriceCents: 2000},
				{MinLength: 10, MaxLength: 63, PriceCents: 600, IsPromotion: true, PromotionLabel: "Long names launch offer",
					PromotionStart: now.Add(-day), PromotionEnd: now.Add(90 * day)},
			}},
	}
	for _, in := range exts {
		if _, err := s.CreateExtension(ctx, in, nil); err != nil {
			return fmt.Errorf("catalog: demo extension %s: %w", *in.Extension, err)
		}
	}
	type demo struct {
		name, ext, category, description string
		dollars                          int64
		featured, reserved               bool
		discount                         int
		until                            time.Duration // from now; 0: no end date
		keywords                         []string
	}
	names := []demo{
		{"cloud", ".inf.nz", "technology", "A short, memorable name for a cloud service or hosting company.", 500, true, false, 0, 0, []string{"cloud", "hosting", "saas"}},
		{"ai", ".inf.nz", "technology", "Two letters every AI start-up wants.", 1500, true, false, 0, 0, []string{"ai", "machine learning", "startup", "data"}},
		{"shop", ".biz.ee", "business", "The classic name for an online store.", 350, true, false, 20, 90 * day, []string{"ecommerce", "store", "retail"}},
		{"money", ".biz.ee", "finance", "For fintech, budgeting apps and advisers.", 900, true, false, 0, 0, []string{"finance", "fintech"}},
		{"travel", ".orgn.uk", "travel", "For travel clubs, agencies and guides.", 250, false, false, 0, 0, []string{"travel", "tourism", "holidays"}},
		{"health", ".inf.nz", "health", "For clinics, wellbeing projects and health information.", 400, false, false, 15, 30 * day, []string{"health", "wellness"}},
		{"learn", ".orgn.uk", "education", "For schools, courses and learning communities.", 180, false, false, 0, 0, []string{"education", "courses"}},
		{"games", ".inf.nz", "entertainment", "For gaming communities and studios.", 300, false, false, 0, 0, []string{"gaming", "esports"}},
		{"sport", ".biz.ee", "sports", "For clubs, leagues and sports shops.", 220, false, false, 10, -10 * day, []string{"sports", "fitness", "clubs"}},
		{"style", ".orgn.uk", "lifestyle", "For fashion, design and lifestyle brands.", 150, false, false, 0, 0, []string{"fashion", "design"}},
		{"startup", ".biz.ee", "business", "For founders and incubators.", 120, false, false, 25, 14 * day, []string{"startup", "founders", "venture"}},
		{"news", ".orgn.uk", "general", "For newsletters and community news.", 200, false, false, 0, 0, []string{"news", "media"}},
		{"home", ".inf.nz", "general", "Held back by the registry.", 600, false, true, 0, 0, []string{"home", "real estate"}},
	}
	for _, n := range names {
		in := PremiumInput{Name: ptr(n.name), Extension: ptr(n.ext), PriceCents: ptr(n.dollars * 100),
			IsAvailable: ptr(!n.reserved), DiscountPercentage: ptr(n.discount), Featured: ptr(n.featured),
			Description: ptr(n.description), Category: ptr(n.category), Keywords: &n.keywords}
		if n.until > 0 {
			in.DiscountValidUntil = ptr(now.Add(n.until))
		}
		p, err := s.CreatePremium(ctx, in, nil)
		if err != nil {
			return fmt.Errorf("catalog: demo premium %s%s: %w", n.name, n.ext, err)
		}
		if n.until < 0 {
			// An expired discount, to show that it no longer applies; the
			// admin form refuses past dates, so set it after creation.
			if err := s.write(ctx, func(ctx context.Context, tx *db.Tx) error {
				_, err := tx.NewUpdate().Model(p).Set("discount_valid_until = ?", now.Add(n.until)).WherePK().Exec(ctx)
				return err
			}); err != nil {
				return err
			}
		}
	}
	return nil
}
