import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

export type UserType = AdminUser['userType']
export type Tier = NonNullable<AdminUser['tier']>
export const TIERS: Tier[] = ['basic', 'premium', 'enterprise']

/** An account as GET /api/admin/users lists it. */
export type AdminUser = Schema<'AdminUserBody'>

export type AdminUserPage = Schema<'AdminUserPage'>

export interface UserFilter {
  search: string
  type: UserType | ''
  page: number
}

export const USERS_URL = '/api/admin/users'
export const USERS_PAGE_SIZE = 20

/** GET /api/admin/users: one page of accounts, newest first. */
export function adminUsersQueryOptions(filter: UserFilter) {
  return queryOptions({
    queryKey: [USERS_URL, filter],
    queryFn: async () => {
      const params = new URLSearchParams({ page: String(filter.page), pageSize: String(USERS_PAGE_SIZE) })
      if (filter.search.trim()) params.set('search', filter.search.trim())
      if (filter.type) params.set('type', filter.type)
      return unwrap(await apiRequest<ApiEnvelope<AdminUserPage>>('GET', `${USERS_URL}?${params}`))
    },
    placeholderData: keepPreviousData,
  })
}

/** PATCH /api/admin/users/{id}: a registrar's tier, or disabling/enabling the account. */
export async function updateAdminUser(id: number, change: Schema<'AdminUserUpdateInputBody'>): Promise<AdminUser> {
  return unwrap(await apiRequest<ApiEnvelope<AdminUser>>('PATCH', `${USERS_URL}/${id}`, change))
}

/** One admin change as GET /api/admin/audit-log lists it. */
export type AuditEntry = Schema<'AuditEntryBody'>

export type AuditPage = Schema<'AuditPage'>

export const AUDIT_URL = '/api/admin/audit-log'

/** GET /api/admin/audit-log, newest first; `before` is the previous page's nextCursor. */
export function auditLogQueryOptions(before: number) {
  return queryOptions({
    queryKey: [AUDIT_URL, before],
    queryFn: async () => {
      const params = new URLSearchParams({ limit: '20' })
      if (before) params.set('before', String(before))
      return unwrap(await apiRequest<ApiEnvelope<AuditPage>>('GET', `${AUDIT_URL}?${params}`))
    },
    placeholderData: keepPreviousData,
  })
}

/** A registrar's pending (or decided) application for a higher tier, as admins see it. */
export type AdminTierApplication = Schema<'AdminTierApplicationBody'>

export const TIER_APPLICATIONS_URL = '/api/admin/tier-applications'

/** GET /api/admin/tier-applications: the pending applications, newest first. */
export function pendingTierApplicationsQueryOptions() {
  return queryOptions({
    queryKey: [TIER_APPLICATIONS_URL, 'pending'],
    queryFn: async () =>
      unwrap(await apiRequest<ApiEnvelope<AdminTierApplication[]>>('GET', `${TIER_APPLICATIONS_URL}?status=pending`)),
  })
}

/** POST /api/admin/tier-applications/{id}/approve: the registrar gets the tier it applied for. */
export async function approveTierApplication(id: number) {
  return unwrap(await apiRequest<ApiEnvelope<unknown>>('POST', `${TIER_APPLICATIONS_URL}/${id}/approve`))
}

/** POST /api/admin/tier-applications/{id}/decline: the reason is mailed to the applicant. */
export async function declineTierApplication(id: number, reason: string) {
  return unwrap(
    await apiRequest<ApiEnvelope<unknown>>('POST', `${TIER_APPLICATIONS_URL}/${id}/decline`, {
      reason,
    } satisfies Schema<'DeclineTierApplicationInputBody'>),
  )
}

/** Which accounts are held until they set up two-factor sign-in. */
export type TwoFactorPolicy = Schema<'TwoFactorPolicyBody'>

export const TWO_FACTOR_POLICY_URL = '/api/admin/two-factor-policy'

/** GET /api/admin/two-factor-policy. */
export function twoFactorPolicyQueryOptions() {
  return queryOptions({
    queryKey: [TWO_FACTOR_POLICY_URL],
    queryFn: async () => unwrap(await apiRequest<ApiEnvelope<TwoFactorPolicy>>('GET', TWO_FACTOR_POLICY_URL)),
  })
}

/** PUT /api/admin/two-factor-policy: the server stores and audits each change. */
export async function setTwoFactorPolicy(policy: TwoFactorPolicy): Promise<TwoFactorPolicy> {
  return unwrap(await apiRequest<ApiEnvelope<TwoFactorPolicy>>('PUT', TWO_FACTOR_POLICY_URL, policy))
}
