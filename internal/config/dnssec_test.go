package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/config"
)

// --dnssec is on by default and turned off by flag, environment or file;
// --dnssec-algorithm takes the two algorithms and refuses others.
func TestDNSSECSettings(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	cfg, err := config.Load(flags(t), "")
	require.NoError(t, err)
	require.False(t, cfg.NoDNSSEC)
	require.Equal(t, "ecdsap256sha256", cfg.DNSSECAlgorithm)

	cfg, err = config.Load(flags(t, "--dnssec=false", "--dnssec-algorithm", "Ed25519"), "")
	require.NoError(t, err)
	require.True(t, cfg.NoDNSSEC)
	require.Equal(t, "ed25519", cfg.DNSSECAlgorithm)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "nameport.yaml"), []byte("dnssec: false\ndnssec-algorithm: ed25519\n"), 0o600))
	cfg, err = config.Load(flags(t), "")
	require.NoError(t, err)
	require.True(t, cfg.NoDNSSEC, "from the file")
	require.Equal(t, "ed25519", cfg.DNSSECAlgorithm)
	t.Setenv("NAMEPORT_DNSSEC", "true")
	cfg, err = config.Load(flags(t), "")
	require.NoError(t, err)
	require.False(t, cfg.NoDNSSEC, "the environment beats the file")

	_, err = config.Load(flags(t, "--dnssec-algorithm", "rsasha256"), "")
	require.ErrorContains(t, err, "--dnssec-algorithm")
}
