package config_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

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

// Signatures are valid a week and made anew once a day old by default;
// what is left at the refresh must outlast a secondary's copy and a
// resolver's cache (two days).
func TestDNSSECSignatureTimes(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg, err := config.Load(flags(t), "")
	require.NoError(t, err)
	require.Equal(t, 7*24*time.Hour, cfg.DNSSECSignatureValidity)
	require.Equal(t, 24*time.Hour, cfg.DNSSECSignatureRefresh)
	cfg, err = config.Load(flags(t, "--dnssec-signature-validity", "72h", "--dnssec-signature-refresh", "6h"), "")
	require.NoError(t, err)
	require.Equal(t, 72*time.Hour, cfg.DNSSECSignatureValidity)
	require.Equal(t, 6*time.Hour, cfg.DNSSECSignatureRefresh)
	for _, bad := range [][]string{
		{"--dnssec-signature-validity", "36h"},                                        // 12h left at the refresh
		{"--dnssec-signature-refresh", "30m"},                                         // too often
		{"--dnssec-signature-validity", "2400h", "--dnssec-signature-refresh", "24h"}, // over 90 days
		{"--dnssec-signature-validity", "-1h"},
	} {
		_, err := config.Load(flags(t, bad...), "")
		require.ErrorContains(t, err, "--dnssec-signature-validity", bad)
	}
}

// A zone's ZSK is rolled over every 90 days by default; 0 never; a
// lifetime shorter than two rollovers is refused (also as an env var).
func TestDNSSECZSKLifetime(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg, err := config.Load(flags(t), "")
	require.NoError(t, err)
	require.Equal(t, 90*24*time.Hour, cfg.DNSSECZSKLifetime)
	cfg, err = config.Load(flags(t, "--dnssec-zsk-lifetime", "0"), "")
	require.NoError(t, err)
	require.Zero(t, cfg.DNSSECZSKLifetime)
	t.Setenv("NAMEPORT_DNSSEC_ZSK_LIFETIME", "720h")
	cfg, err = config.Load(flags(t), "")
	require.NoError(t, err)
	require.Equal(t, 30*24*time.Hour, cfg.DNSSECZSKLifetime)
	for _, bad := range []string{"100h", "-1h"} {
		_, err := config.Load(flags(t, "--dnssec-zsk-lifetime", bad), "")
		require.ErrorContains(t, err, "--dnssec-zsk-lifetime", bad)
	}
}
