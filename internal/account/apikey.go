package account

import (
	"crypto/rand"
	"encoding/base32"
	"fmt"
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
