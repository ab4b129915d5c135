const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

/** Dollars with two decimals, e.g. $1,234.50. */
export function formatUsd(amount: number): string {
  return usd.format(amount)
}

/** A money amount in the given currency, two decimals. */
export function formatMoney(amount: number, currency: string): string {
  if (currency === 'USD') return usd.format(amount)
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount)
  } catch {
    return `${amount.toFixed(2)} ${currency}`
  }
}

const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' })

/** A calendar date such as "Mar 4, 2026"; the raw text when it does not parse. */
export function formatDate(value: string): string {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : dateFormat.format(date)
}

const utcDateFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
})

/**
 * The calendar day of a server time, read in UTC ("Dec 31, 2026") so a date
 * the server stores as midnight or end of day UTC shows as that day everywhere.
 */
export function formatUtcDate(value: string): string {
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : utcDateFormat.format(date)
}
