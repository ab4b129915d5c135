package server

import (
	"context"
	"log/slog"

	"github.com/nameport/nameport/internal/account"
	"github.com/nameport/nameport/internal/apperr"
)

// demoPassword is the password of every demo account. Demo data loads only
// with --demo, which is for trying Nameport out, never for production.
const demoPassword = "demo1234"

var demoAccounts = []account.SignUp{
	{Username: "demo", Email: "demo@nameport.test", FullName: "Demo User", UserType: account.TypeUser},
	{Username: "demo-registrar", Email: "registrar@nameport.test", FullName: "Demo Registrar",
		UserType: account.TypeRegistrar},
}

// demoTiers are the tiers the demo admin grants demo registrars (sign-up
// gives basic; higher tiers are an admin's to give).
var demoTiers = map[string]string{"demo-registrar": account.TierPremium}

// seedDemo creates the demo accounts, a demo admin and the demo catalog when
// they are missing.
func seedDemo(ctx context.Context, svc Services, logger *slog.Logger) error {
	accounts := svc.Accounts
	admin, err := accounts.CreateDemoAdmin(ctx, "demo-admin", "admin@nameport.test", demoPassword)
	if err != nil && apperr.Code(err) != apperr.Conflict {
		return err
	}
	for _, in := range demoAccounts {
		in.Password, in.ConfirmPassword = demoPassword, demoPassword
		u, err := accounts.Register(ctx, in)
		if apperr.Code(err) == apperr.Conflict {
			continue
		}
		if err != nil {
			return err
		}
		// Demo accounts work at once: nobody reads their mail.
		if err := accounts.MarkEmailVerified(ctx, u.ID); err != nil {
			return err
		}
		if tier := demoTiers[in.Username]; tier != "" && admin != nil {
			if _, err := accounts.SetTier(ctx, admin, u.ID, tier); err != nil {
				return err
			}
		}
	}
	if err := svc.Catalog.SeedDemo(ctx); err != nil {
		return err
	}
	// Passwords never go into logs, not even this well-known one: README names it.
	logger.Info("demo accounts ready", "users", "demo, demo-registrar, demo-admin")
	return nil
}
