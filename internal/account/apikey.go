package account

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"fmt"

	"github.com/nameport/nameport/internal/apperr"
)

// APIKeyPrefix starts every API key, so leaked keys are easy to recognise.
const APIKeyPrefix = "np_"

// newAPIKey returns a fresh random API key.
func newAPIKey() (string, error) {
	raw := make([]byte, 25)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("account: api key: %w", err)
	}
	return APIKeyPrefix + base32.HexEncoding.WithPadding(base32.NoPadding).EncodeToString(raw), nil
}

// RegistrarAPIKey returns registrar u's API key for its owner; forbidden
// for accounts that are not registrars.
func (s *Service) RegistrarAPIKey(u *User) (string, error) {
	if !u.IsRegistrar() {
		return "", apperr.New(apperr.Forbidden, "Only registrar accounts have an API key")
	}
	return s.APIKey(u)
}

// RotateAPIKey gives registrar u a new API key and returns it; the old key
// stops working at once. Returns forbidden for accounts that are not
// registrars.
func (s *Service) RotateAPIKey(ctx context.Context, u *User) (string, error) {
	defer s.apiKeys.forget() // the account may change
	if !u.IsRegistrar() {
		return "", apperr.New(apperr.Forbidden, "Only registrar accounts have an API key")
	}
	key, err := newAPIKey()
	if err != nil {
		return "", err
	}
	sealed, err := s.keys.Seal(key)
	if err != nil {
		return "", err
	}
	hash := s.keys.Hash(key)
	now := s.clock()
	if _, err := s.db.Bun.NewUpdate().Model((*User)(nil)).Set("api_key_sealed = ?", sealed).
		Set("api_key_hash = ?", hash).Set("updated_at = ?", now).Where("id = ?", u.ID).Exec(ctx); err != nil {
		return "", fmt.Errorf("account: rotate api key of %s: %w", u.Username, err)
	}
	u.APIKeySealed, u.APIKeyHash, u.UpdatedAt = sealed, hash, now
	return key, nil
}
