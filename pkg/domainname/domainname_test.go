package domainname_test

import (
	"fmt"
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
