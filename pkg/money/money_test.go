package money_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nameport/nameport/pkg/money"
)

func TestFromDollars(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    float64
		cents int64
		ok    bool
	}{
		{8, 800, true}, {0.1, 10, true}, {0.29, 29, true}, {12.34, 1234, true}, {1e6 + 0.01, 100000001, true},
		{-5.5, -550, true}, {0.001, 0, false}, {8.125, 0, false}, {math.NaN(), 0, false}, {math.Inf(1), 0, false}, {2e13, 0, false},
	}
	for _, tt := range tests {
		cents, ok := money.FromDollars(tt.in)
		require.Equal(t, tt.ok, ok, tt.in)
		require.Equal(t, tt.cents, cents, tt.in)
	}
}

func TestPercent(t *testing.T) {
	t.Parallel()
	require.EqualValues(t, 28000, money.Percent(35000, 20))
	require.EqualValues(t, 849, money.Percent(999, 15), "8.4915 dollars rounds down")
	require.EqualValues(t, 503, money.Percent(1005, 50), "5.025 dollars rounds half up")
	require.EqualValues(t, 999, money.Percent(999, 0))
	require.EqualValues(t, 0, money.Percent(999, 100))
}

func TestFormat(t *testing.T) {
	t.Parallel()
	require.Equal(t, "$0.00", money.Format(0))
	require.Equal(t, "$16.00", money.Format(1600))
	require.Equal(t, "$0.05", money.Format(5))
	require.Equal(t, "-$8.50", money.Format(-850))
	require.Equal(t, "$1234.56", money.Format(123456))
}

func ExampleFormat() {
	fmt.Println(money.Format(850), money.Format(-5))
	// Output: $8.50 -$0.05
}

func ExampleDollars() {
	fmt.Println(money.Dollars(850), money.Dollars(28000))
	// Output: 8.5 280
}
