// Package money converts between the integer cents Nameport computes with and
// the dollar amounts its API speaks. Money is never computed in floating
// point: dollars exist only at the edge, in JSON.
package money

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Dollars shows cents as dollars (850 → 8.5) for JSON.
func Dollars(cents int64) float64 { return float64(cents) / 100 }

// Format writes cents as people read them, in messages and tables:
// 1600 → "$16.00", -850 → "-$8.50".
func Format(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s$%d.%02d", sign, cents/100, cents%100)
}

// FromDollars converts a dollar amount with at most two decimals to cents.
// ok is false for amounts with finer fractions, non-finite values, or values
// beyond ±10^13 dollars.
func FromDollars(dollars float64) (cents int64, ok bool) {
	if math.IsNaN(dollars) || math.IsInf(dollars, 0) || math.Abs(dollars) > 1e13 {
		return 0, false
	}
	// Binary floating point cannot hold 0.1 exactly, so the decimals are
	// counted on the shortest decimal that reads back as the same float: the
	// number as the caller wrote it. (A tolerance on dollars*100 let
	// 0.000000001 through as 0 cents.)
	s := strconv.FormatFloat(dollars, 'f', -1, 64)
	if dot := strings.IndexByte(s, '.'); dot >= 0 && len(s)-dot-1 > 2 {
		return 0, false
	}
	return int64(math.Round(dollars * 100)), true
}

// Percent returns cents reduced by percent (0-100), rounded half up to the
// cent: the spec's base × (1 − percent/100) with two decimals.
func Percent(cents int64, percent int) int64 {
	return (cents*int64(100-percent) + 50) / 100
}
