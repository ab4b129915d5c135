package dnsserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/internal/dnssec"
	"github.com/nameport/nameport/internal/zone"
)

// envRequireZoneVerify makes the checks of signed transfers fail, rather
// than skip, when ldns-verify-zone or kzonecheck is missing: CI sets it.
const envRequireZoneVerify = "NAMEPORT_REQUIRE_ZONEVERIFY"

// verifySignedZone requires that rrs, the records of an AXFR of origin
// (SOA first and last), pass ldns-verify-zone (ldnsutils) and kzonecheck
// --dnssec on (knot-dnssecutils) as a signed zone: every authoritative
// record set signed by the zone's DNSKEY, a complete NSEC chain, glue and
// delegations' NS sets unsigned.
func verifySignedZone(t *testing.T, origin string, rrs []dns.RR) {
	t.Helper()
	for _, failure := range checkSignedZone(t, origin, rrs) {
		t.Error(failure)
	}
	if t.Failed() {
		t.FailNow()
	}
}

// checkSignedZone runs both checks on rrs and returns what each that
// failed said.
func checkSignedZone(t *testing.T, origin string, rrs []dns.RR) []string {
	t.Helper()
	ldns := requireProgram(t, "ldns-verify-zone", envRequireZoneVerify, "ldnsutils")
	kzonecheck := requireProgram(t, "kzonecheck", envRequireZoneVerify, "knot-dnssecutils")
	require.GreaterOrEqual(t, len(rrs), 2)
	require.IsType(t, &dns.SOA{}, rrs[0], "first the SOA")
	require.IsType(t, &dns.SOA{}, rrs[len(rrs)-1], "and last")
	var file strings.Builder
	for _, rr := range rrs[:len(rrs)-1] {
		file.WriteString(rr.String() + "\n")
	}
	path := filepath.Join(t.TempDir(), strings.TrimSuffix(origin, ".")+".zone")
	require.NoError(t, os.WriteFile(path, []byte(file.String()), 0o600))
	var failures []string
	for _, cmd := range []*exec.Cmd{
		exec.Command(ldns, "-V", "2", path),
		exec.Command(kzonecheck, "-o", origin, "--dnssec", "on", path),
	} {
		if out, err := cmd.CombinedOutput(); err != nil {
			failures = append(failures, fmt.Sprintf("%s: %v\n%s\nzone file:\n%s", strings.Join(cmd.Args, " "), err, out, file.String()))
		}
	}
	return failures
}

// The AXFR of each signed zone is a complete signed zone that
// ldns-verify-zone and kzonecheck accept, with either algorithm: wildcards,
// CNAMEs, empty non-terminals, delegations with glue (and an address at
// the delegation itself, which is the child's). An IXFR that cannot be
// answered by the current SOA alone gets the same signed zone; the
// catalog zone stays unsigned.
func TestSignedTransferPassesValidators(t *testing.T) {
	t.Parallel()
	for _, alg := range []uint8{dnssec.ECDSAP256SHA256, dnssec.ED25519} {
		t.Run(dns.AlgorithmToString[alg], func(t *testing.T) {
			t.Parallel()
			// Less two NS of sib, whose targets are a name that exists
			// only through a wildcard and a CNAME, which kzonecheck calls
			// missing glue, signed or not.
			text := testZones
			for _, ns := range []string{"host", "www"} {
				line := "sib                300 IN NS    " + ns + ".example.inf.nz.\n"
				require.Contains(t, text, line)
				text = strings.Replace(text, line, "", 1)
			}
			snap, err := buildFromText(text)
			require.NoError(t, err)
			source, keys := staticKeys(t, alg)
			addr := freeLoopbackAddr(t)
			srv := New(addr, slog.New(slog.NewTextHandler(io.Discard, nil)), WithDNSSEC(source), WithTransfer(netip.MustParsePrefix("127.0.0.0/8")))
			srv.Publish(snap)
			require.NoError(t, srv.Start())
			t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })

			for _, origin := range []string{"inf.nz.", "biz.ee."} {
				axfr := axfrFrom(t, addr, new(dns.Msg).SetAxfr(origin))
				verifySignedZone(t, origin, axfr)
				var nsec, dnskey int
				for _, rr := range axfr {
					switch rr := rr.(type) {
					case *dns.NSEC:
						nsec++
					case *dns.DNSKEY:
						dnskey++
						require.Equal(t, keys[origin].Tag(), rr.KeyTag())
					case *dns.RRSIG:
						require.Equal(t, alg, rr.Algorithm)
					}
				}
				require.Equal(t, 1, dnskey, "%s: the DNSKEY set", origin)
				require.Positive(t, nsec, "%s: an NSEC chain", origin)
				// Both tools see a gap in the chain.
				victim := ""
				for _, rr := range axfr {
					if rr.Header().Rrtype == dns.TypeNSEC && rr.Header().Name != origin && victim == "" {
						victim = rr.Header().Name
					}
				}
				gap := slices.DeleteFunc(slices.Clone(axfr), func(rr dns.RR) bool {
					if sig, ok := rr.(*dns.RRSIG); ok && sig.TypeCovered == dns.TypeNSEC {
						return sig.Hdr.Name == victim
					}
					return rr.Header().Rrtype == dns.TypeNSEC && rr.Header().Name == victim
				})
				require.Equal(t, len(axfr)-2, len(gap), "the NSEC of %s and its RRSIG gone", victim)
				require.Len(t, checkSignedZone(t, origin, gap), 2, "a gap in the NSEC chain fails both checks")
				ixfr := axfrFrom(t, addr, new(dns.Msg).SetIxfr(origin, 1, "ns1.nameport.net.", "hostmaster."+origin))
				require.ElementsMatch(t, rrStrings(axfr), rrStrings(ixfr), "an IXFR from a serial without history: the signed zone")
			}
			// Glue and the delegations' NS sets are not signed; the DS
			// proof of a delegation is its NSEC.
			axfr := axfrFrom(t, addr, new(dns.Msg).SetAxfr("inf.nz."))
			for _, rr := range axfr {
				if sig, ok := rr.(*dns.RRSIG); ok {
					owner := strings.ToLower(sig.Hdr.Name)
					require.False(t, strings.HasSuffix(owner, "deleg.inf.nz.") && sig.TypeCovered != dns.TypeNSEC,
						"the child's records are not signed: %s", sig)
					require.False(t, owner == "ns1.sub.example.inf.nz.", "glue is not signed: %s", sig)
				}
				if nsec, ok := rr.(*dns.NSEC); ok && nsec.Hdr.Name == "deleg.inf.nz." {
					require.Equal(t, []uint16{dns.TypeNS, dns.TypeRRSIG, dns.TypeNSEC}, nsec.TypeBitMap)
				}
			}
		})
	}
}

// The NSEC chain follows the canonical order of names (RFC 4034 6.1),
// octet by octet, not the text of the names.
func TestCanonicalKeyOrder(t *testing.T) {
	t.Parallel()
	ordered := []string{"example.", "a.example.", "yljkjljk.a.example.", "Z.a.example.", "zABC.a.EXAMPLE.",
		"z.example.", "\\001.z.example.", "*.z.example.", "\\200.z.example."}
	for i := 1; i < len(ordered); i++ {
		require.Negative(t, strings.Compare(string(canonicalKey(ordered[i-1])), string(canonicalKey(ordered[i]))),
			"%s before %s", ordered[i-1], ordered[i])
	}
	require.Equal(t, canonicalKey("A.Example."), canonicalKey("a.example."))
	require.Negative(t, strings.Compare(string(canonicalKey("a.example.")), string(canonicalKey("a\\000.example."))))
}

// axfrFrom sends m over TCP and returns every record of the answer.
func axfrFrom(t *testing.T, addr string, m *dns.Msg) []dns.RR {
	t.Helper()
	envelopes, err := (&dns.Transfer{ReadTimeout: 10 * time.Second}).In(m, addr)
	require.NoError(t, err)
	var rrs []dns.RR
	for e := range envelopes {
		require.NoError(t, e.Error)
		rrs = append(rrs, e.RR...)
	}
	return rrs
}

func rrStrings(rrs []dns.RR) []string {
	out := make([]string, len(rrs))
	for i, rr := range rrs {
		out[i] = rr.String()
	}
	return out
}

// A zone's transfers reuse the signatures of the one before while they are
// good (ECDSA signatures differ each time a set is signed: equal ones were
// kept), make them anew once due, and leave the answers' cache alone.
func TestSignedTransferReusesSignatures(t *testing.T) {
	t.Parallel()
	s, _ := signingServer(t, dnssec.ECDSAP256SHA256)
	z := s.Snapshot().zones["inf.nz."]
	now := time.Now()
	sigs := func(at time.Time) map[string]string {
		out := map[string]string{}
		for _, rr := range s.transferRecords(z, at) {
			if sig, ok := rr.(*dns.RRSIG); ok {
				out[sig.Hdr.Name+"/"+dns.TypeToString[sig.TypeCovered]] = sig.Signature
			}
		}
		return out
	}
	first := sigs(now)
	require.NotEmpty(t, first)
	require.Equal(t, first, sigs(now.Add(time.Hour)), "kept")
	refreshed := sigs(now.Add(sigRefresh + time.Hour))
	require.Len(t, refreshed, len(first))
	for k, sig := range refreshed {
		require.NotEqual(t, first[k], sig, "%s: made anew once due", k)
	}
	s.sigs.mu.Lock()
	defer s.sigs.mu.Unlock()
	require.Empty(t, s.sigs.m, "the answers' cache is not filled by transfers")
}

// The snapshot file keeps which zones have DNSSEC off, so that a server
// starting from it serves them unsigned.
func TestSnapshotFileKeepsUnsignedZones(t *testing.T) {
	t.Parallel()
	data := &zone.SnapshotData{Serial: 7, Zones: []zone.ZoneData{
		{Origin: "inf.nz.", Nameservers: []string{"ns1.nameport.net."}},
		{Origin: "biz.ee.", Nameservers: []string{"ns1.nameport.net."}, Unsigned: true},
	}}
	_, got, err := decodeSnapshotFile(encodeSnapshotFile("id", data))
	require.NoError(t, err)
	require.Len(t, got.Zones, 2)
	require.False(t, got.Zones[0].Unsigned)
	require.True(t, got.Zones[1].Unsigned)

	source, _ := staticKeys(t, dnssec.ECDSAP256SHA256)
	srv := New("127.0.0.1:0", slog.New(slog.NewTextHandler(io.Discard, nil)), WithDNSSEC(source))
	snap, skipped := NewSnapshot(got)
	require.Empty(t, skipped)
	srv.Publish(snap)
	require.NotNil(t, srv.Snapshot().zones["inf.nz."].keys)
	require.Nil(t, srv.Snapshot().zones["biz.ee."].keys, "DNSSEC off: no key")
}
