package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/dbtest"
)

func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	cmd := newRootCmd()
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func TestMigrateAndAdminCreate(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, engine := range dbtest.Engines() {
		t.Run(string(engine), func(t *testing.T) {
			url := dbtest.URL(t, engine)
			dataDir := filepath.Join(t.TempDir(), "data")
			common := []string{"--database-url", url, "--data-dir", dataDir, "--log-level", "error"}

			_, err := run(t, append([]string{"migrate"}, common...)...)
			require.NoError(t, err)
			_, err = run(t, append([]string{"migrate"}, common...)...)
			require.NoError(t, err, "migrating twice is harmless")

			out, err := run(t, append([]string{"admin", "create", "--username", "root", "--email", "root@example.com", "--password", "hunter22"}, common...)...)
			require.NoError(t, err)
			require.Contains(t, out, "admin root created")

			_, err = run(t, append([]string{"admin", "create", "--username", "root", "--email", "r2@example.com", "--password", "hunter22"}, common...)...)
			require.EqualError(t, err, "Username is already taken")
			_, err = run(t, append([]string{"admin", "create", "--username", "r", "--email", "r3@example.com", "--password", "hunter22"}, common...)...)
			require.EqualError(t, err, "Username must be at least 3 characters")
			_, err = run(t, append([]string{"admin", "create", "--username", "root2"}, common...)...)
			require.ErrorContains(t, err, "required flag")

			d, err := db.Open(context.Background(), url)
			require.NoError(t, err)
			defer d.Close()
			var userType string
			require.NoError(t, d.Bun.NewRaw("SELECT user_type FROM users WHERE username = 'root'").Scan(context.Background(), &userType))
			require.Equal(t, "admin", userType)
		})
	}
}

func TestOpenAPIPrintsTheDocument(t *testing.T) {
	out, err := run(t, "openapi")
	require.NoError(t, err)
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Equal(t, "3.1.0", doc.OpenAPI)
	for _, p := range []string{"/api/auth/register", "/api/auth/login", "/api/auth/logout", "/api/auth/me", "/api/me"} {
		require.Contains(t, doc.Paths, p)
	}

	// --v1: the registrar API's document alone, as /v1/openapi.json.
	out, err = run(t, "openapi", "--v1")
	require.NoError(t, err)
	doc.Paths = nil
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Equal(t, "3.1.0", doc.OpenAPI)
	require.Contains(t, doc.Paths, "/v1/domains/check")
	for p := range doc.Paths {
		require.True(t, strings.HasPrefix(p, "/v1/"), p)
	}
}

func TestServeRejectsBadConfig(t *testing.T) {
	t.Chdir(t.TempDir())
	_, err := run(t, "serve", "--roles", "smtp")
	require.ErrorContains(t, err, "unknown role")
	_, err = run(t, "serve", "--database-url", "mysql://x", "--data-dir", t.TempDir())
	require.ErrorContains(t, err, "unsupported database url")
}
