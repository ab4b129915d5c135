import { queryOptions } from '@tanstack/react-query'
import { apiRequest, unwrap, type ApiEnvelope } from '@/lib/api'
import type { Schema } from '@/lib/schemas'

/** Categories a setting may have (spec section 3); payment holds the gateways. */
export type SettingCategory = SiteSetting['category']

/** The categories offered in the setting form (spec section 9). */
export const FORM_CATEGORIES: SettingCategory[] = ['branding', 'contact', 'social', 'seo', 'general']

/** A site setting as GET /api/site-settings lists it. */
export type SiteSetting = Schema<'SettingBody'>

export type SettingFields = Schema<'SettingFields'>

export const SITE_SETTINGS_URL = '/api/site-settings'

/** GET /api/site-settings: admins get every setting, secrets masked. */
export function siteSettingsQueryOptions() {
  return queryOptions({
    queryKey: [SITE_SETTINGS_URL],
    queryFn: async () => unwrap(await apiRequest<ApiEnvelope<SiteSetting[]>>('GET', SITE_SETTINGS_URL)),
  })
}

export async function createSetting(fields: SettingFields): Promise<SiteSetting> {
  return unwrap(await apiRequest<ApiEnvelope<SiteSetting>>('POST', SITE_SETTINGS_URL, fields))
}

export async function updateSetting(id: number, fields: SettingFields): Promise<SiteSetting> {
  return unwrap(await apiRequest<ApiEnvelope<SiteSetting>>('PATCH', `${SITE_SETTINGS_URL}/${id}`, fields))
}

export async function deleteSetting(id: number): Promise<void> {
  await apiRequest('DELETE', `${SITE_SETTINGS_URL}/${id}`)
}
