import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, getQueryFn, serverMessage, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'
import { allowanceQueryOptions } from '@/lib/allowance'
import { transactionsQueryOptions, walletQueryOptions } from '@/lib/wallet'

/** One name's availability and price, or why it cannot be checked. */
export type BulkCheckResult = Schema<'BulkCheckResult'>
export type BulkCheck = Schema<'BulkCheck'>
/** A bulk job: its progress and, when read alone, its rows. */
export type BulkJob = Schema<'BulkJob'>
export type BulkJobRow = Schema<'BulkJobRow'>
export type BulkJobRequest = Schema<'BulkJobRequest'>
export type DNSTemplate = Schema<'DNSTemplate'>
export type DNSTemplateRequest = Schema<'DNSTemplateRequest'>
export type RecordSet = Schema<'RecordSet'>
/** One of the account's domains, as the domain list reads it. */
export type OwnDomain = Schema<'DomainBody'>

/** The most names a check or a job takes. */
export const MAX_NAMES = 1000

/**
 * The names of pasted text or an uploaded file: one a line, or a CSV whose
 * header has a "name" or "domain" column (else its first column). Blank
 * lines and a header are skipped; the server drops repeats and checks each.
 */
export function parseNames(text: string): string[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
  if (lines.length === 0) return []
  const cells = (line: string) => line.split(/[,;\t]/).map((c) => c.trim().replace(/^"|"$/g, ''))
  const header = cells(lines[0]).map((c) => c.toLowerCase())
  let column = 0
  let rows = lines
  const named = header.findIndex((c) => c === 'name' || c === 'domain' || c === 'domain name')
  if (named >= 0) {
    column = named
    rows = lines.slice(1)
  }
  return rows.flatMap((line) => {
    const v = cells(line)[column] ?? ''
    return v ? [v] : []
  })
}

const checkPath = '/api/registrar/bulk/check'
const jobsPath = '/api/registrar/bulk/jobs'
const templatesPath = '/api/registrar/dns-templates'

/** POST /api/registrar/bulk/check: availability and price of each name, in the order given. */
export async function bulkCheck(names: string[]): Promise<BulkCheck> {
  return unwrap(await apiRequest<ApiEnvelope<BulkCheck>>('POST', checkPath, { names }))
}

/**
 * POST /api/registrar/bulk/jobs: starts a job. key makes a repeated send
 * (a double click, a retry) the same job.
 */
export async function startBulkJob({ request, key }: { request: BulkJobRequest; key: string }): Promise<BulkJob> {
  return unwrap(
    await apiRequest<ApiEnvelope<BulkJob>>('POST', jobsPath, request, { headers: { 'Idempotency-Key': key } }),
  )
}

/** A fresh key for one confirmed request. */
export function newRequestKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`
}

/**
 * GET /api/registrar/bulk/jobs/{id}: the job with its rows. Polled every
 * second while it runs (the one query here that refreshes by itself: it
 * shows progress), then left alone.
 */
export function bulkJobQueryOptions(id: number) {
  return queryOptions({
    queryKey: [`${jobsPath}/${id}`],
    queryFn: getQueryFn<BulkJob>(),
    refetchInterval: (query) => (query.state.data?.state === 'done' ? false : 1000),
  })
}

/** GET /api/domains: the account's domains, to pick for renewal and auto-renewal. */
export function ownDomainsQueryOptions() {
  return queryOptions({ queryKey: ['/api/domains'], queryFn: getQueryFn<OwnDomain[] | null>(), select: (d) => d ?? [] })
}

/** GET /api/registrar/dns-templates. */
export function templatesQueryOptions() {
  return queryOptions({
    queryKey: [templatesPath],
    queryFn: getQueryFn<DNSTemplate[] | null>(),
    select: (t) => t ?? [],
  })
}

export async function createTemplate(request: DNSTemplateRequest): Promise<DNSTemplate> {
  return unwrap(await apiRequest<ApiEnvelope<DNSTemplate>>('POST', templatesPath, request))
}

export async function updateTemplate({
  id,
  request,
}: {
  id: number
  request: DNSTemplateRequest
}): Promise<DNSTemplate> {
  return unwrap(await apiRequest<ApiEnvelope<DNSTemplate>>('PUT', `${templatesPath}/${id}`, request))
}

export async function deleteTemplate(id: number): Promise<void> {
  unwrap(await apiRequest<ApiEnvelope<unknown>>('DELETE', `${templatesPath}/${id}`))
}

export function useStartBulkJob() {
  return useMutation({ mutationFn: startBulkJob })
}

function useTemplatesMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: templatesQueryOptions().queryKey }),
  })
}
export const useCreateTemplate = () => useTemplatesMutation(createTemplate)
export const useUpdateTemplate = () => useTemplatesMutation(updateTemplate)
export const useDeleteTemplate = () => useTemplatesMutation(deleteTemplate)

/** What a finished job changed: the wallet, its transactions and the domain list are read again. */
export function useJobFinished() {
  const queryClient = useQueryClient()
  return () => {
    void queryClient.invalidateQueries({ queryKey: walletQueryOptions().queryKey })
    void queryClient.invalidateQueries({ queryKey: transactionsQueryOptions().queryKey })
    void queryClient.invalidateQueries({ queryKey: ownDomainsQueryOptions().queryKey })
    // The tier card's count of this month's registrations.
    void queryClient.invalidateQueries({ queryKey: allowanceQueryOptions().queryKey })
  }
}

/**
 * Record sets from lines of "name type value [value…]" (an MX value as
 * "10 mail.example.com" keeps its priority, so MX lines are "name MX 10 host").
 * Lines of the same name and type make one set. Returns the sets, or the
 * first line that does not read.
 */
export function parseRecordLines(text: string): { sets: RecordSet[] } | { error: string } {
  const sets = new Map<string, RecordSet>()
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line) continue
    const [name, type, ...rest] = line.split(/\s+/)
    if (!name || !type || rest.length === 0) return { error: `Write each record as "name type value": ${line}` }
    const t = type.toUpperCase() as RecordSet['type']
    const value = rest.join(' ')
    const key = `${name} ${t}`
    const set = sets.get(key)
    if (set) set.values = [...(set.values ?? []), value]
    else sets.set(key, { name, type: t, values: [value] })
  }
  if (sets.size === 0) return { error: 'Add at least one record' }
  return { sets: [...sets.values()] }
}

/**
 * A template's sets as the lines parseRecordLines reads, for editing: a set's
 * priority goes in front of each value that carries none (MX "10 host", SRV
 * "10 5 5060 host").
 */
export function recordLines(sets: RecordSet[]): string {
  const ownPriority = (type: string, value: string) =>
    type === 'MX' ? value.trim().split(/\s+/).length === 2 : type === 'SRV' && value.trim().split(/\s+/).length === 4
  return sets
    .flatMap((s) =>
      (s.values ?? []).map((v) => {
        const value = s.priority != null && !ownPriority(s.type, v) ? `${s.priority} ${v}` : v
        return `${s.name} ${s.type} ${value}`
      }),
    )
    .join('\n')
}

/**
 * The sets of an edited template's lines, each keeping the TTL its set of the
 * same name and type had (the lines carry no TTL).
 */
export function keepTTLs(sets: RecordSet[], before: RecordSet[]): RecordSet[] {
  const ttls = new Map(before.map((s) => [`${s.name} ${s.type}`, s.ttl]))
  return sets.map((s) => {
    const ttl = ttls.get(`${s.name} ${s.type}`)
    return ttl === undefined ? s : { ...s, ttl }
  })
}

/** A failed call's text: the server's message, else the app's general fallback. */
export function bulkErrorText(error: unknown): string {
  return serverMessage(error) || 'An unexpected error occurred'
}
