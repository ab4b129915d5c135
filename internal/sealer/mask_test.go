package sealer

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMask(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ secret, want string }{
		{"", ""},
		{"short", "••••"},
		{"1234567", "••••"},
		{"sk_test_abcd1234", "••••1234"},
		{"ключ-секрет-ёжик", "••••ёжик"},
	} {
		require.Equal(t, tc.want, Mask(tc.secret), tc.secret)
	}
}
