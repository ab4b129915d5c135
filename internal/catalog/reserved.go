package catalog

import "slices"

// ReservedNames are labels nobody can register under any extension: names
// the registry needs for itself (nic, whois, rdap, ns1…), names that invite
// abuse or confusion (admin, postmaster…), and names RFC 2606 reserves.
var ReservedNames = []string{
	"abuse", "admin", "administrator", "api", "dns", "example", "ftp", "hostmaster", "invalid",
	"localhost", "mail", "mx", "nameport", "nic", "ns", "ns1", "ns2", "ns3", "ns4", "postmaster",
	"rdap", "registry", "root", "smtp", "support", "test", "webmaster", "whois", "www",
}

// IsReserved reports whether label (lower case) is reserved.
func IsReserved(label string) bool {
	_, found := slices.BinarySearch(ReservedNames, label)
	return found
}
