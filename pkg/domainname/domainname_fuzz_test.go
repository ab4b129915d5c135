package domainname_test

import (
	"strings"
	"testing"

	"github.com/miekg/dns"
	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/pkg/domainname"
)

// FuzzNormalizeLabel feeds user input through the path the product uses
// (Normalize, then CheckLabel) and checks:
//   - neither function panics;
//   - Normalize is idempotent and its output is its own stored form;
//   - a label CheckLabel accepts is 1 to 63 ASCII letters, digits and
//     hyphens with no hyphen at either end, and a valid DNS label: it packs
//     into a name under an extension and reads back unchanged;
//   - normalising an accepted label keeps it accepted (case only changes).
//
// (FuzzCheckLabel in domainname_test.go covers CheckLabel on its own.)
func FuzzNormalizeLabel(f *testing.F) {
	for _, seed := range []string{
		"example", "  Example  ", "EXAMPLE", "a", "a--b", "-a", "a-", "xn--bcher-kva", strings.Repeat("a", 63),
		strings.Repeat("a", 64), " " + strings.Repeat("A", 63) + "\t", "under_score", "dot.ted", "ünicode",
		"\u212Aelvin", "\u0130stanbul", "\xff\xfe", "\u00a0nbsp\u00a0", "emoji😀", "", " ",
		"xn--zz", "xn--80ak6aa92e", "XN--PPLE-43D", "ab--cd", "xn--fiqs8s",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		norm := domainname.Normalize(raw)
		require.Equal(t, norm, domainname.Normalize(norm), "Normalize is idempotent")

		for _, label := range []string{raw, norm} {
			if domainname.CheckLabel(label) != nil {
				continue
			}
			requireValidLabel(t, label)
			lower := domainname.Normalize(label)
			require.Equal(t, strings.ToLower(label), lower, "an accepted label normalises to its lower case")
			require.NoError(t, domainname.CheckLabel(lower), "normalising keeps an accepted label accepted")
		}
	})
}

func requireValidLabel(t *testing.T, label string) {
	t.Helper()
	require.True(t, len(label) >= 1 && len(label) <= domainname.MaxLabel, "length %d", len(label))
	require.NotEqual(t, byte('-'), label[0])
	require.NotEqual(t, byte('-'), label[len(label)-1])
	for i := 0; i < len(label); i++ {
		c := label[i]
		require.True(t, c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-',
			"byte %q of %q", c, label)
	}
	// The registered name is served by the DNS server: it must survive the
	// wire format as it is.
	name := label + ".inf.nz."
	_, ok := dns.IsDomainName(name)
	require.True(t, ok, name)
	buf := make([]byte, 256)
	n, err := dns.PackDomainName(name, buf, 0, nil, false)
	require.NoError(t, err)
	back, _, err := dns.UnpackDomainName(buf[:n], 0)
	require.NoError(t, err)
	require.Equal(t, name, back)
}
