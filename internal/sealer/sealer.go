// Package sealer keeps secrets unreadable at rest: Seal encrypts a value with
// AES-256-GCM under a key derived from the server secret, so the server can
// show it again; Hash gives a keyed digest for looking a secret up without
// storing it.
package sealer

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
)

// Sealer seals and hashes secrets for one purpose (API keys, DNS provider
// credentials…): keys derived for one purpose never open another's values.
type Sealer struct {
	aead    cipher.AEAD
	hashKey []byte
}

// New derives a sealer for purpose from the server secret (32 bytes or more).
func New(secret []byte, purpose string) (*Sealer, error) {
	if len(secret) < 32 {
		return nil, errors.New("sealer: the server secret must be at least 32 bytes")
	}
	block, err := aes.NewCipher(derive(secret, "nameport "+purpose+" seal v1"))
	if err != nil {
		return nil, fmt.Errorf("sealer: cipher: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("sealer: gcm: %w", err)
	}
	return &Sealer{aead: aead, hashKey: derive(secret, "nameport "+purpose+" hash v1")}, nil
}

func derive(secret []byte, label string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(label))
	return m.Sum(nil)
}

// Hash returns the keyed digest of value (hex).
func (s *Sealer) Hash(value string) string {
	m := hmac.New(sha256.New, s.hashKey)
	m.Write([]byte(value))
	return hex.EncodeToString(m.Sum(nil))
}

// Seal encrypts value; each call uses a fresh nonce.
func (s *Sealer) Seal(value string) (string, error) {
	nonce := make([]byte, s.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("sealer: nonce: %w", err)
	}
	return base64.StdEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(value), nil)), nil
}

// Open decrypts what Seal produced.
func (s *Sealer) Open(sealed string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(sealed)
	if err != nil || len(raw) < s.aead.NonceSize() {
		return "", errors.New("sealer: sealed value is malformed")
	}
	plain, err := s.aead.Open(nil, raw[:s.aead.NonceSize()], raw[s.aead.NonceSize():], nil)
	if err != nil {
		return "", errors.New("sealer: sealed value does not open with this server secret")
	}
	return string(plain), nil
}

// MaskPrefix stands for the hidden part of a masked secret.
const MaskPrefix = "••••"

// Mask shows a secret as the admin screens do: its last four characters
// after MaskPrefix, or MaskPrefix alone for a secret under eight characters
// (four of them would give too much away); "" stays "".
func Mask(plain string) string {
	if plain == "" {
		return ""
	}
	r := []rune(plain)
	if len(r) < 8 {
		return MaskPrefix
	}
	return MaskPrefix + string(r[len(r)-4:])
}
