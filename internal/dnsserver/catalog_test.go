package dnsserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"
)

// The catalog zone holds what RFC 9432 asks of version 2 and nothing else:
// the SOA, NS invalid., TXT "2" at version, and one PTR per member under
// zones, at a label that depends on the member's name only. It is served
// beside the extensions' zones without hiding any of their names.
func TestCatalogZone(t *testing.T) {
	t.Parallel()
	const catalog = "catalog.nameport.invalid."
	ext := testSnapshot(t).zones["inf.nz."]
	snap := &Snapshot{zones: map[string]*servedZone{
		catalog:   newCatalogZone("Catalog.Nameport.INVALID", []string{"inf.nz.", "Biz.EE", "domain.example."}, 42),
		"inf.nz.": ext,
	}}
	soa := "catalog.nameport.invalid. 3600 IN SOA invalid. hostmaster.catalog.nameport.invalid. 42 7200 900 1209600 300"
	negSOA := strings.Replace(soa, "3600", "300", 1)
	// BIND's documented label for domain.example: the SHA-1 of its name
	// in wire format.
	const domainExampleID = "5960775ba382e7a4e09263fc06e7c00569b6a05c"
	require.Equal(t, domainExampleID, catalogMemberID("domain.example."))

	for _, tt := range []struct {
		qname  string
		qtype  uint16
		rcode  int
		answer []string
		ns     []string
	}{
		{qname: catalog, qtype: dns.TypeSOA, answer: []string{soa}},
		{qname: catalog, qtype: dns.TypeNS, answer: []string{"catalog.nameport.invalid. 0 IN NS invalid."}},
		{qname: "version." + catalog, qtype: dns.TypeTXT, answer: []string{`version.catalog.nameport.invalid. 0 IN TXT "2"`}},
		{qname: domainExampleID + ".zones." + catalog, qtype: dns.TypePTR,
			answer: []string{domainExampleID + ".zones.catalog.nameport.invalid. 0 IN PTR domain.example."}},
		{qname: catalogMemberID("biz.ee.") + ".zones." + catalog, qtype: dns.TypePTR,
			answer: []string{catalogMemberID("biz.ee.") + ".zones.catalog.nameport.invalid. 0 IN PTR biz.ee."}},
		{qname: "zones." + catalog, qtype: dns.TypePTR, ns: []string{negSOA}}, // an empty non-terminal
		{qname: "nothing.zones." + catalog, qtype: dns.TypePTR, rcode: dns.RcodeNameError, ns: []string{negSOA}},
		// The extension's zone answers as before.
		{qname: "example.inf.nz.", qtype: dns.TypeA, answer: []string{"example.inf.nz. 300 IN A 192.0.2.1"}},
	} {
		res := Lookup(snap, tt.qname, tt.qtype)
		what := tt.qname + " " + dns.TypeToString[tt.qtype]
		require.Equal(t, dns.RcodeToString[tt.rcode], dns.RcodeToString[res.Rcode], what)
		require.True(t, res.Authoritative, what)
		require.Equal(t, normalise(t, tt.answer), texts(res.Answer), "answer: "+what)
		require.Equal(t, normalise(t, tt.ns), texts(res.Ns), "authority: "+what)
		require.Empty(t, res.Extra, what)
	}

	// One PTR per member, each at a label of its own; the same labels in
	// a catalog built again (a consumer resets a member whose label
	// changes), whatever the order of the members.
	var ptrs []string
	for _, rr := range snap.zones[catalog].records() {
		if ptr, ok := rr.(*dns.PTR); ok {
			ptrs = append(ptrs, ptr.String())
			label, _, _ := strings.Cut(ptr.Hdr.Name, ".")
			require.Equal(t, catalogMemberID(ptr.Ptr), label)
		}
	}
	require.Len(t, ptrs, 3)
	require.NotEqual(t, catalogMemberID("inf.nz."), catalogMemberID("biz.ee."))
	var again []string
	for _, rr := range newCatalogZone(catalog, []string{"domain.example.", "biz.ee.", "inf.nz."}, 43).records() {
		if ptr, ok := rr.(*dns.PTR); ok {
			again = append(again, ptr.String())
		}
	}
	require.Equal(t, ptrs, again)

	// Without members: a valid catalog of no zones.
	empty := newCatalogZone(catalog, nil, 1).records()
	require.Len(t, empty, 3, "SOA, NS, TXT")
}

// The catalog passes kzonecheck and named-checkzone as a zone file, as a
// secondary loads it after a transfer.
func TestCatalogZonePassesValidators(t *testing.T) {
	t.Parallel()
	var missing []string
	tool := func(name string) string {
		path, err := exec.LookPath(name)
		if err != nil {
			missing = append(missing, name)
		}
		return path
	}
	kzonecheck, namedCheckzone := tool("kzonecheck"), tool("named-checkzone")
	if len(missing) > 0 {
		if os.Getenv("NAMEPORT_REQUIRE_CHECKZONE") == "1" {
			t.Fatalf("%s not installed (apt-get install knot-dnssecutils bind9-utils), and NAMEPORT_REQUIRE_CHECKZONE=1", strings.Join(missing, ", "))
		}
		t.Skipf("%s not installed (apt-get install knot-dnssecutils bind9-utils)", strings.Join(missing, ", "))
	}
	var file strings.Builder
	for _, rr := range newCatalogZone("catalog.nameport.invalid.", []string{"inf.nz.", "biz.ee.", "xn--wgv71a.example."}, 2024).records() {
		file.WriteString(rr.String() + "\n")
	}
	path := filepath.Join(t.TempDir(), "catalog.zone")
	require.NoError(t, os.WriteFile(path, []byte(file.String()), 0o600))
	for _, cmd := range []*exec.Cmd{
		exec.Command(kzonecheck, "-o", "catalog.nameport.invalid.", path),
		exec.Command(namedCheckzone, "-k", "fail", "-n", "fail", "-m", "fail", "-M", "fail", "-S", "fail", "-r", "fail",
			"catalog.nameport.invalid.", path),
	} {
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s:\n%s\nzone file:\n%s", strings.Join(cmd.Args, " "), out, file.String())
	}
}

func TestWithCatalogZone(t *testing.T) {
	t.Parallel()
	require.Empty(t, New("127.0.0.1:0", nil).opts.catalogZone, "no catalog zone unless asked")
	require.Equal(t, "catalog.example.net.", New("127.0.0.1:0", nil, WithCatalogZone("Catalog.Example.NET")).opts.catalogZone)
}
