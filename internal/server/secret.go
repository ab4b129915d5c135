package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// secretFile is where a generated server secret is kept in the data folder.
const secretFile = "secret.key"

// loadSecret returns the configured server secret (hex), or the one in
// dataDir/secret.key, creating that file with a new random secret the first
// time. Several nodes sharing one PostgreSQL must share one secret: configure
// it, or copy the file.
func loadSecret(configured, dataDir string) ([]byte, error) {
	if configured != "" {
		return decodeSecret(configured, "--secret")
	}
	path := filepath.Join(dataDir, secretFile)
	if raw, err := os.ReadFile(path); err == nil {
		return decodeSecret(string(raw), path)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("server: read %s: %w", path, err)
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("server: generate secret: %w", err)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("server: create %s: %w", dataDir, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		// Another process created it first: use theirs.
		return loadSecret("", dataDir)
	}
	if err != nil {
		return nil, fmt.Errorf("server: create %s: %w", path, err)
	}
	defer f.Close()
	if _, err := f.WriteString(hex.EncodeToString(secret) + "\n"); err != nil {
		return nil, fmt.Errorf("server: write %s: %w", path, err)
	}
	return secret, nil
}

func decodeSecret(text, source string) ([]byte, error) {
	secret, err := hex.DecodeString(strings.TrimSpace(text))
	if err != nil || len(secret) < 32 {
		return nil, fmt.Errorf("server: the secret in %s must be at least 64 hex characters", source)
	}
	return secret, nil
}
