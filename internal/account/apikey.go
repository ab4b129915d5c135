package account

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
)

// APIKeyPrefix starts every API key, so leaked keys are easy to recognise.
const APIKeyPrefix = "np_"

// keyring keeps API keys unreadable at rest: each key is stored sealed with
// AES-256-GCM (so its owner can see it again) and as an HMAC (for lookup).
// Both keys derive from the server secret.
type keyring struct {
	aead    cipher.AEAD
	hashKey []byte
}

func newKeyring(secret []byte) (*keyring, error) {
	if len(secret) < 32 {
		return nil, errors.New("account: the server secret must be at least 32 bytes")
	}
	block, err := aes.NewCipher(derive(secret, "nameport api-key seal v1"))
	if err != nil {
		return nil, fmt.Errorf("account: cipher: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("account: gcm: %w", err)
	}
	return &keyring{aead: aead, hashKey: derive(secret, "nameport api-key hash v1")}, nil
}

func derive(secret []byte, purpose string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

// newAPIKey returns a fresh random API key.
func newAPIKey() (string, error) {
	raw := make([]byte, 25)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("account: api key: %w", err)
	}
	return APIKeyPrefix + base32.HexEncoding.WithPadding(base32.NoPadding).EncodeToString(raw), nil
}

func (k *keyring) hash(apiKey string) string {
	m := hmac.New(sha256.New, k.hashKey)
	m.Write([]byte(apiKey))
	return hex.EncodeToString(m.Sum(nil))
}

func (k *keyring) seal(apiKey string) (string, error) {
	nonce := make([]byte, k.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("account: nonce: %w", err)
	}
	return base64.StdEncoding.EncodeToString(k.aead.Seal(nonce, nonce, []byte(apiKey), nil)), nil
}

func (k *keyring) open(sealed string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(sealed)
	if err != nil || len(raw) < k.aead.NonceSize() {
		return "", errors.New("account: sealed api key is malformed")
	}
	plain, err := k.aead.Open(nil, raw[:k.aead.NonceSize()], raw[k.aead.NonceSize():], nil)
	if err != nil {
		return "", errors.New("account: sealed api key does not open with this server secret")
	}
	return string(plain), nil
}
