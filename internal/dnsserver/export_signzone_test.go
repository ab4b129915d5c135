package dnsserver

import "testing"

// VerifySignedZone requires that rrs, an AXFR of origin, pass
// ldns-verify-zone and kzonecheck --dnssec on (skipped when they are
// missing, unless NAMEPORT_REQUIRE_ZONEVERIFY=1).
var VerifySignedZone = verifySignedZone

// StartUnbound starts unbound as a validating resolver with the trust
// anchors (DS records) asking the stubs (zone: address) for their zones,
// and returns its address (skipped when unbound is missing, unless
// NAMEPORT_REQUIRE_UNBOUND=1).
func StartUnbound(t *testing.T, anchors []string, stubs map[string]string) string {
	t.Helper()
	return startUnbound(t, requireProgram(t, "unbound", envRequireUnbound, "unbound"), anchors, stubs)
}

// Resolve asks addr with RD and DO.
var Resolve = resolve

// CheckSignedZone runs ldns-verify-zone and kzonecheck on rrs (an AXFR of
// origin) and returns what each that failed said.
var CheckSignedZone = checkSignedZone
