package server_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/servertest"
)

// TestDataFilesAreOwnerOnly: the data folder, the SQLite files (with their
// -wal and -shm companions) and the generated secret are readable by the
// server's user alone, whatever the umask.
func TestDataFilesAreOwnerOnly(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	// The server has written by the time it is up: migrations, the secret.
	servertest.Start(t, db.SQLite, func(c *config.Config) {
		c.DataDir = dir
		c.DatabaseURL = "sqlite://" + filepath.Join(dir, "nameport.db")
		c.Secret = ""
	})
	mode := func(name string) os.FileMode {
		t.Helper()
		fi, err := os.Stat(filepath.Join(dir, name))
		require.NoError(t, err)
		return fi.Mode().Perm()
	}
	require.Equal(t, os.FileMode(0o700), mode("."))
	for _, f := range []string{"nameport.db", "nameport.db-wal", "nameport.db-shm", "secret.key"} {
		require.Equal(t, os.FileMode(0o600), mode(f), f)
	}
}
