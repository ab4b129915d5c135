// zod/mini keeps form chunks small; it shares its core with the route schemas.
import * as z from 'zod/mini'
import { useRef } from 'react'
import type { Resolver } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { apiRequest, type ApiEnvelope } from './api'
import { useRules, type Rules } from './rules'
import type { Schema } from './schemas'

/** GET /api/domains/check: the caller's yearly price (wholesale for a registrar). */
export type DomainCheck = Schema<'CheckBody'>

/** Availability is asked on each search and never cached: it changes as names are registered. */
export function checkDomain({ name, extension }: { name: string; extension: string }) {
  const query = new URLSearchParams({ name, extension })
  return apiRequest<ApiEnvelope<DomainCheck>>('GET', `/api/domains/check?${query}`)
}

type NameRules = Rules['domainName']

/**
 * A label's check as the user types, built from the server's rules and
 * messages (GET /api/rules); the server checks again (internationalized
 * names too). Until the rules load, only emptiness is checked here.
 */
export function domainNameSchema(rules: NameRules | undefined) {
  if (!rules) return z.string().check(z.trim(), z.minLength(1, 'Domain name is required'))
  return z
    .string()
    .check(
      z.trim(),
      z.minLength(rules.minLength, rules.requiredMessage),
      z.maxLength(rules.maxLength, rules.tooLongMessage),
      z.regex(new RegExp(rules.pattern), rules.charactersMessage),
    )
}

/** The search form's schema: a valid name and one of the offered extensions. */
export function domainSearchSchema(offered: readonly string[], rules: NameRules | undefined) {
  return z.object({
    name: domainNameSchema(rules),
    extension: z.string().check(z.refine((value) => offered.includes(value), 'Choose one of the offered extensions')),
  })
}

export type SearchValues = { name: string; extension: string }

/**
 * The resolver of a domain search form. The offered extensions and the
 * rules arrive from the server after the form exists, so it reads the
 * latest of both rather than those of the first render.
 */
export function useDomainSearchResolver(offered: readonly string[]): Resolver<SearchValues> {
  const rules = useRules()?.domainName
  const latest = useRef({ offered, rules })
  latest.current = { offered, rules }
  return (values, context, options) =>
    zodResolver(domainSearchSchema(latest.current.offered, latest.current.rules))(values, context, options)
}

/** "shop" + ".biz.ee" → "shop.biz.ee" (the check may answer the label with or without its extension). */
export function checkedName(result: DomainCheck): string {
  return result.domain.endsWith(result.extension) ? result.domain : `${result.domain}${result.extension}`
}

/** The label of a check result, without the extension. */
export function checkedLabel(result: DomainCheck): string {
  return result.domain.endsWith(result.extension)
    ? result.domain.slice(0, result.domain.length - result.extension.length)
    : result.domain
}
