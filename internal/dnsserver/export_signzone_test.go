package dnsserver

// VerifySignedZone requires that rrs, an AXFR of origin, pass
// ldns-verify-zone and kzonecheck --dnssec on (skipped when they are
// missing, unless NAMEPORT_REQUIRE_ZONEVERIFY=1).
var VerifySignedZone = verifySignedZone
