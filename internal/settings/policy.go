package settings

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// KeyRequireTwoFactorRegistrars is the site setting by which admins require
// two-factor sign-in of registrar accounts ("true" to require it). Admin
// accounts are always asked for it (see api's two-factor status).
const KeyRequireTwoFactorRegistrars = "require_two_factor_registrars"

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
	switch strings.ToLower(strings.TrimSpace(value)) {
	case "true", "yes", "on", "1":
		return true, nil
	}
	return false, nil
}
