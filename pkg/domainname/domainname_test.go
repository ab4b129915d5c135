package domainname_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/pkg/domainname"
)

func TestCheckLabel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		label string
		want  error
	}{
		{"example", nil}, {"a", nil}, {"Shop-2024", nil}, {"a--b", nil}, {strings.Repeat("a", 63), nil},
		{"", domainname.Required},
		{strings.Repeat("a", 64), domainname.TooLong},
		{"-bad", domainname.Characters}, {"bad-", domainname.Characters}, {"-", domainname.Characters},
		{"has space", domainname.Characters}, {"dot.ted", domainname.Characters}, {"under_score", domainname.Characters},
		{"ünicode", domainname.Characters}, {"emoji😀", domainname.Characters}, {"semi;colon", domainname.Characters},
		{"' OR 1=1 --", domainname.Characters},

		// Hyphens in the third and fourth places belong to encodings (RFC 5891).
		{"ab--cd", domainname.Characters}, {"AB--CD", domainname.Characters}, {"a---b", domainname.Characters}, {"a--b-c", nil}, {"abc--d", nil},
		// Internationalized labels: valid IDNA 2008, one script, no look-alikes.
		{"xn--bcher-kva", nil}, {"XN--BCHER-KVA", nil}, {"xn--mnchen-3ya", nil}, {"xn--fiqs8s", nil},
		{"xn--nxasmq6b", nil}, {"xn--wgv71a119e", nil}, // Greek βόλοσ; Japanese 日本語
		{"xn--zz", domainname.Punycode}, {"xn--", domainname.Characters}, {"xn--a", domainname.Punycode},
		{"xn--abc", domainname.Punycode},
		{"xn--bcher-kva-", domainname.Characters},
		{"xn--80ak6aa92e", domainname.MixedScripts}, // Cyrillic "аррӏе" imitating apple
		{"xn--pple-43d", domainname.MixedScripts},   // Cyrillic а + Latin pple
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, domainname.CheckLabel(tt.label), tt.label)
	}
}

func ExampleCheckLabel() {
	fmt.Println(domainname.CheckLabel("my-site"))
	fmt.Println(domainname.CheckLabel("-bad"))
	// Output:
	// <nil>
	// Domain name can only contain letters, numbers, and hyphens. It cannot start or end with a hyphen or contain consecutive hyphens.
}

func FuzzCheckLabel(f *testing.F) {
	for _, seed := range []string{"example", "-x", "a--b", "ünicode", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, label string) {
		if domainname.CheckLabel(label) == nil {
			// Whatever passes is a valid DNS label.
			require.True(t, len(label) >= 1 && len(label) <= 63)
			require.NotEqual(t, byte('-'), label[0])
			require.Equal(t, label, strings.Map(func(r rune) rune {
				if r < 128 {
					return r
				}
				return -1
			}, label))
		}
	})
}

// Pattern is what clients check as the user types: it must never refuse a
// label CheckLabel accepts, and every label it refuses must be one
// CheckLabel refuses for its characters (or emptiness).
func TestPatternAgreesWithCheckLabel(t *testing.T) {
	t.Parallel()
	pattern := regexp.MustCompile(domainname.Pattern)
	alphabet := []byte("aZ9-._ ü")
	labels := []string{"example", "a", "a--b", "ab--cd", "xn--bcher-kva", "-a", "a-", "", "dot.ted", "ünicode"}
	var grow func(prefix string, depth int)
	grow = func(prefix string, depth int) {
		labels = append(labels, prefix)
		if depth == 0 {
			return
		}
		for _, c := range alphabet {
			grow(prefix+string(c), depth-1)
		}
	}
	grow("", 4)
	for _, label := range labels {
		err := domainname.CheckLabel(label)
		if err == nil {
			require.True(t, pattern.MatchString(label), "the pattern refuses %q, which CheckLabel accepts", label)
		}
		if !pattern.MatchString(label) {
			require.Contains(t, []error{domainname.Characters, domainname.Required}, err,
				"the pattern refuses %q; CheckLabel says %v", label, err)
		}
	}
}
