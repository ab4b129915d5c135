package cli_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/cli"
)

func TestExitCodes(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	tests := []struct {
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"version"}, cli.ExitOK, "nameportctl dev", ""},
		{[]string{"frobnicate"}, cli.ExitUsage, "", "unknown command"},
		{[]string{"version", "extra"}, cli.ExitUsage, "", `unknown command "extra"`},
		{[]string{"--no-such-flag"}, cli.ExitUsage, "", "unknown flag"},
		{[]string{"version", "--output", "yaml"}, cli.ExitUsage, "", "--output must be table or json"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := cli.Execute(tt.args, &out, &errOut)
		require.Equal(t, tt.code, code, tt.args)
		require.Contains(t, out.String(), tt.stdout, tt.args)
		require.Contains(t, errOut.String(), tt.stderr, tt.args)
	}
}
