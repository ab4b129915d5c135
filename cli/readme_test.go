package cli_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
	"github.com/nameport/nameport/internal/db"
	"github.com/nameport/nameport/internal/servertest"
)

// readmeBlocks returns the fenced code blocks of README.md marked
// "<!-- tested: KIND -->", by kind.
func readmeBlocks(t *testing.T) map[string]string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "README.md"))
	require.NoError(t, err)
	re := regexp.MustCompile("(?s)<!-- tested: (\\w+) -->\n```\\w*\n(.*?)```")
	blocks := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(string(text), -1) {
		blocks[m[1]] = m[2]
	}
	require.Len(t, blocks, 3, "README's curl, cli and go examples")
	return blocks
}

// The README's automation examples work as written, against a real server
// with the demo catalog and a new registrar's key.
func TestREADMEExamples(t *testing.T) {
	t.Parallel()
	blocks := readmeBlocks(t)
	srv := servertest.Start(t, db.SQLite, func(c *config.Config) { c.Demo = true })
	key := registrarKey(t, srv.URL, "readme")
	env := append(os.Environ(), "NAMEPORT_URL="+srv.URL, "NAMEPORT_API_KEY="+key,
		"PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	run := func(t *testing.T, dir string, name string, args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Env, cmd.Dir = env, dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s %s:\n%s", name, strings.Join(args, " "), out)
		return string(out)
	}

	t.Run("curl", func(t *testing.T) {
		if _, err := exec.LookPath("curl"); err != nil {
			t.Skip("curl is not installed")
		}
		out := run(t, "", "bash", "-euo", "pipefail", "-c", blocks["curl"])
		require.Contains(t, out, `"domain":"my-brand.inf.nz"`)
		require.Contains(t, out, `"available":true`)
	})

	t.Run("cli", func(t *testing.T) {
		script := "set -euo pipefail\n" + blocks["cli"]
		require.Contains(t, blocks["cli"], "nameportctl domain register")
		out := run(t, "", "bash", "-c", script)
		require.Contains(t, out, "acme-widgets.inf.nz")
		require.Contains(t, out, "192.0.2.11")
		require.Contains(t, out, "mx2.example.net")
		require.Contains(t, out, "you@example.com", "the forwarding rule listed")
		require.Contains(t, out, "This is the only time it is shown", "the new key's secret shown once")
		require.Regexp(t, `(?m)^\d+\s+reports\s+read\s+anywhere`, out, "the new key listed")
		require.Contains(t, out, "month,registrations,renewals\n", "the activity report as CSV")
		require.Regexp(t, `(?m)^TIME\s+KEY\s+METHOD\s+PATH\s+STATUS\s+LATENCY`, out, "the request log's table")
	})

	t.Run("go", func(t *testing.T) {
		dir := t.TempDir()
		sdkDir, err := filepath.Abs(filepath.Join("..", "sdk"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(blocks["go"]), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module readme\n\ngo 1.23\n\n"+
			"require github.com/nameport/nameport/sdk v0.0.0\n\n"+
			"replace github.com/nameport/nameport/sdk => "+sdkDir+"\n"), 0o644))
		// The SDK has no dependencies: nothing is downloaded.
		run(t, dir, "go", "mod", "tidy")
		out := run(t, dir, "go", "run", ".")
		require.Contains(t, out, "gopher-tools.inf.nz: available=true")
		require.Contains(t, out, "registered gopher-tools.inf.nz until")
		require.Contains(t, out, "gopher-tools.inf.nz [ns1.example.net ns2.example.net]")
	})
}
