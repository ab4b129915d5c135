// Money on the client: amounts arrive in dollars, sums are done in cents.

/** Money in cents, so 3 × $8.10 is $24.30 exactly. */
export function toCents(dollars: number): number {
  return Math.round(dollars * 100)
}

/** The whole dollars to add for a shortfall: rounded up, at least 1. */
export function topUpDollars(shortfallCents: number): number {
  return Math.max(1, Math.ceil(shortfallCents / 100))
}
