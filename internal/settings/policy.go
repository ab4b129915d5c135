package settings

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"github.com/nameport/nameport/internal/audit"
)

// The site settings of the two-factor policy ("true" to require it).
// Admin accounts are always asked for a second factor, and admins made
// after two-factor sign-in came are held until they set one up (see
// account's NeedsTwoFactorSetup); these settings hold the rest.
const (
	// KeyRequireTwoFactorAdmins holds every admin account, older ones too.
	KeyRequireTwoFactorAdmins = "require_two_factor_admins"
	// KeyRequireTwoFactorRegistrars holds registrar accounts.
	KeyRequireTwoFactorRegistrars = "require_two_factor_registrars"
)

// TwoFactorPolicy is which accounts the site holds until they set up a
// second factor.
type TwoFactorPolicy struct {
	Admins     bool // every admin (not only those made after 2FA came)
	Registrars bool
}

// TwoFactorPolicy returns the site's two-factor policy.
func (s *Service) TwoFactorPolicy(ctx context.Context) (TwoFactorPolicy, error) {
	// One read for both: an admin's or registrar's every request asks.
	var rows []struct {
		Key   string `bun:"key"`
		Value string `bun:"value"`
	}
	if err := s.db.Bun.NewSelect().Model((*Setting)(nil)).Column("key", "value").
		Where("key IN (?)", bun.In([]string{KeyRequireTwoFactorAdmins, KeyRequireTwoFactorRegistrars})).Scan(ctx, &rows); err != nil {
		return TwoFactorPolicy{}, fmt.Errorf("settings: read the two-factor policy: %w", err)
	}
	var p TwoFactorPolicy
	for _, r := range rows {
		switch r.Key {
		case KeyRequireTwoFactorAdmins:
			p.Admins = isOn(r.Value)
		case KeyRequireTwoFactorRegistrars:
			p.Registrars = isOn(r.Value)
		}
	}
	return p, nil
}

// SetTwoFactorPolicy stores p: each setting that changes is created or
// updated (a private general setting), audited with describe of the
// action (audit.ActionSettingCreate or audit.ActionSettingUpdate).
func (s *Service) SetTwoFactorPolicy(ctx context.Context, p TwoFactorPolicy, describe func(action string) audit.Describe[*Setting]) (TwoFactorPolicy, error) {
	set := []struct {
		key, what string
		on        bool
	}{
		{KeyRequireTwoFactorAdmins, "Hold every admin account until it sets up two-factor sign-in", p.Admins},
		{KeyRequireTwoFactorRegistrars, "Hold registrar accounts from registrar tools until they set up two-factor sign-in", p.Registrars},
	}
	for _, c := range set {
		if err := s.setEnabled(ctx, c.key, c.what, c.on, describe); err != nil {
			return TwoFactorPolicy{}, err
		}
	}
	return s.TwoFactorPolicy(ctx)
}

// setEnabled turns the setting key on or off unless it already is.
func (s *Service) setEnabled(ctx context.Context, key, description string, on bool, describe func(action string) audit.Describe[*Setting]) error {
	was, err := s.Enabled(ctx, key)
	if err != nil || was == on {
		return err
	}
	value := strconv.FormatBool(on)
	var id int64
	err = s.db.Bun.NewSelect().Model((*Setting)(nil)).Column("id").Where("key = ?", key).Scan(ctx, &id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		category, private := "general", false
		_, err = s.Create(ctx, Input{Key: &key, Value: &value, Category: &category, Description: &description,
			IsPublic: &private}, describe(audit.ActionSettingCreate))
	case err == nil:
		_, err = s.Update(ctx, id, Input{Value: &value}, describe(audit.ActionSettingUpdate))
	}
	return err
}

// Enabled reports whether the setting key is on: a value of true, yes, on
// or 1 (any case). A missing setting is off.
func (s *Service) Enabled(ctx context.Context, key string) (bool, error) {
	var value string
	err := s.db.Bun.NewSelect().Model((*Setting)(nil)).Column("value").Where("key = ?", key).Scan(ctx, &value)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("settings: read %s: %w", key, err)
	}
	return isOn(value), nil
}

// isOn reports whether a switch setting's value means on.
func isOn(value string) bool {
	switch strings.ToLower(strings.TrimSpace(value)) {
	case "true", "yes", "on", "1":
		return true
	}
	return false
}
