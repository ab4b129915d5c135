package main

import (
	"net/netip"
	"testing"
	"time"
)

// Every domain's AAAA record is a valid address of its own, past 65,535
// domains too (the benchmark at 100,000 domains left 35,000 out).
func TestDomainAddressesAreValidAndDistinct(t *testing.T) {
	seen := map[string]int{}
	for _, i := range []int{0, 1, 65535, 65536, 99999, 1_000_000, 1<<32 - 1} {
		records := domainRecords(1, i, domainLabel(i), time.Unix(0, 0))
		v6 := records[1].Content
		a, err := netip.ParseAddr(v6)
		if err != nil || !a.Is6() || a.Is4In6() {
			t.Fatalf("domain %d: AAAA %q is no IPv6 address: %v", i, v6, err)
		}
		if a.String() != v6 {
			t.Errorf("domain %d: %q is not in the canonical form zone stores (%s)", i, v6, a)
		}
		if j, dup := seen[v6]; dup {
			t.Errorf("domains %d and %d share %s", j, i, v6)
		}
		seen[v6] = i
	}
}
