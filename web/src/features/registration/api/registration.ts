import type { QueryClient } from '@tanstack/react-query'
import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import { domainsQueryOptions, type Domain } from '@/lib/domains'
import { transactionsQueryOptions, walletQueryOptions, type Transaction, type Wallet } from '@/lib/wallet'
import { premiumDomainsQueryOptions } from '@/lib/catalog'

export interface RegisterDomainInput {
  name: string
  extension: string
  years: number
  autoRenew: boolean
}

export interface RegisterDomainResult {
  domain: Domain
  transaction: Transaction
  wallet: Wallet
}

/**
 * POST /api/domains. The Idempotency-Key makes a retry of the same attempt
 * (a double click, a repeat after a lost answer) register and charge once:
 * the server answers a replayed key with the first registration.
 */
export async function registerDomain(input: RegisterDomainInput, idempotencyKey: string) {
  const envelope = await apiRequest<ApiEnvelope<RegisterDomainResult>>('POST', '/api/domains', input, {
    headers: { 'Idempotency-Key': idempotencyKey },
  })
  return unwrap(envelope)
}

/** What a registration changes: the domain list, the wallet, its history and the premium names on sale. */
export function invalidateAfterRegistration(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: domainsQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: walletQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: transactionsQueryOptions().queryKey }),
    queryClient.invalidateQueries({ queryKey: premiumDomainsQueryOptions().queryKey }),
  ])
}

/** Money in cents, so 3 × $8.10 is $24.30 exactly. */
export function toCents(dollars: number): number {
  return Math.round(dollars * 100)
}

/** The whole dollars to add for a shortfall: rounded up, at least 1. */
export function topUpDollars(shortfallCents: number): number {
  return Math.max(1, Math.ceil(shortfallCents / 100))
}

/** The amount a 402 message asks for ("… Add $6.00 to continue."), in cents, when it names one. */
export function shortfallFromMessage(message: string | undefined): number | undefined {
  const match = message && /add \$([\d,]+(?:\.\d{1,2})?)/i.exec(message)
  if (!match) return undefined
  const dollars = Number(match[1].replace(/,/g, ''))
  return Number.isFinite(dollars) && dollars > 0 ? toCents(dollars) : undefined
}
