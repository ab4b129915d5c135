// Package money converts between the integer cents Nameport computes with and
// the dollar amounts its API speaks. Money is never computed in floating
// point: dollars exist only at the edge, in JSON.
package money

import "math"

// Dollars shows cents as dollars (850 → 8.5).
func Dollars(cents int64) float64 { return float64(cents) / 100 }

// FromDollars converts a dollar amount with at most two decimals to cents.
// ok is false for amounts with finer fractions, non-finite values, or values
// beyond ±10^13 dollars.
func FromDollars(dollars float64) (cents int64, ok bool) {
	if math.IsNaN(dollars) || math.IsInf(dollars, 0) || math.Abs(dollars) > 1e13 {
		return 0, false
	}
	scaled := dollars * 100
	rounded := math.Round(scaled)
	// Binary floating point cannot hold 0.1 exactly; a tiny difference is
	// representation, a real third decimal is not.
	if math.Abs(scaled-rounded) > 1e-6 {
		return 0, false
	}
	return int64(rounded), true
}

// Percent returns cents reduced by percent (0-100), rounded half up to the
// cent: the spec's base × (1 − percent/100) with two decimals.
func Percent(cents int64, percent int) int64 {
	return (cents*int64(100-percent) + 50) / 100
}
