import { parseList, withoutDot, type AdminExtension, type ExtensionInput } from '../api/extensions'

/** The advanced form's values; lists are edited one entry per line, numbers as text. */
export interface Values {
  extension: string
  active: boolean
  basePrice: string
  description: string
  dnsNameservers: string
  dnsProvider: string
  dnsApiKey: string
  dnsApiSecret: string
  dnsZoneId: string
  requiresVerification: boolean
  verificationDocuments: string
  verificationInstructions: string
  adminEmail: string
  technicalEmail: string
  billingEmail: string
  whoisPrivacyEnabled: boolean
  renewalPrice: string
  renewalPeriodDays: string
  gracePeriodDays: string
  minNameLength: string
  maxNameLength: string
  allowedCharacters: string
  allowsSubdomains: boolean
  allowsDnsManagement: boolean
  allowsEmailForwarding: boolean
  dnssecEnabled: boolean
}

// Spec section 9: advanced defaults.
export const newValues: Values = {
  extension: '',
  active: true,
  basePrice: '8',
  description: '',
  dnsNameservers: '',
  dnsProvider: 'custom',
  dnsApiKey: '',
  dnsApiSecret: '',
  dnsZoneId: '',
  requiresVerification: false,
  verificationDocuments: '',
  verificationInstructions: '',
  adminEmail: '',
  technicalEmail: '',
  billingEmail: '',
  whoisPrivacyEnabled: true,
  renewalPrice: '',
  renewalPeriodDays: '365',
  gracePeriodDays: '30',
  minNameLength: '3',
  maxNameLength: '63',
  allowedCharacters: 'a-z0-9-',
  allowsSubdomains: true,
  allowsDnsManagement: true,
  allowsEmailForwarding: true,
  dnssecEnabled: true,
}

export function valuesOf(e: AdminExtension): Values {
  return {
    extension: withoutDot(e.extension),
    active: e.active,
    basePrice: String(e.basePrice),
    description: e.description,
    dnsNameservers: (e.dnsNameservers ?? []).join('\n'),
    dnsProvider: e.dnsProvider || 'custom',
    // Masked by the server: only the last 4 characters show.
    dnsApiKey: e.dnsApiKey ?? '',
    dnsApiSecret: e.dnsApiSecret ?? '',
    dnsZoneId: e.dnsZoneId ?? '',
    requiresVerification: Boolean(e.requiresVerification),
    verificationDocuments: (e.verificationDocuments ?? []).join('\n'),
    verificationInstructions: e.verificationInstructions ?? '',
    adminEmail: e.adminEmail ?? '',
    technicalEmail: e.technicalEmail ?? '',
    billingEmail: e.billingEmail ?? '',
    whoisPrivacyEnabled: e.whoisPrivacyEnabled ?? true,
    renewalPrice: String(e.renewalPrice),
    renewalPeriodDays: String(e.renewalPeriodDays),
    gracePeriodDays: String(e.gracePeriodDays),
    minNameLength: String(e.minNameLength),
    maxNameLength: String(e.maxNameLength),
    allowedCharacters: e.allowedCharacters,
    allowsSubdomains: e.allowsSubdomains ?? true,
    allowsDnsManagement: e.allowsDnsManagement ?? true,
    allowsEmailForwarding: e.allowsEmailForwarding ?? true,
    dnssecEnabled: e.dnssecEnabled ?? true,
  }
}

/**
 * The request body. The DNS key and secret are sent only when the admin
 * typed a new one (an emptied field removes it); the masked value the form
 * was filled with is never sent.
 */
export function bodyOf(values: Values, initial: Values): ExtensionInput {
  const num = (text: string) => (text.trim() === '' ? undefined : Number(text))
  const body: ExtensionInput = {
    extension: values.extension.trim(),
    active: values.active,
    basePrice: num(values.basePrice),
    description: values.description,
    dnsNameservers: parseList(values.dnsNameservers),
    dnsProvider: values.dnsProvider,
    dnsZoneId: values.dnsZoneId.trim(),
    requiresVerification: values.requiresVerification,
    verificationDocuments: parseList(values.verificationDocuments),
    verificationInstructions: values.verificationInstructions,
    adminEmail: values.adminEmail.trim(),
    technicalEmail: values.technicalEmail.trim(),
    billingEmail: values.billingEmail.trim(),
    whoisPrivacyEnabled: values.whoisPrivacyEnabled,
    renewalPrice: num(values.renewalPrice),
    renewalPeriodDays: num(values.renewalPeriodDays),
    gracePeriodDays: num(values.gracePeriodDays),
    minNameLength: num(values.minNameLength),
    maxNameLength: num(values.maxNameLength),
    allowedCharacters: values.allowedCharacters.trim(),
    allowsSubdomains: values.allowsSubdomains,
    allowsDnsManagement: values.allowsDnsManagement,
    allowsEmailForwarding: values.allowsEmailForwarding,
    dnssecEnabled: values.dnssecEnabled,
  }
  if (values.dnsApiKey !== initial.dnsApiKey) body.dnsApiKey = values.dnsApiKey.trim()
  if (values.dnsApiSecret !== initial.dnsApiSecret) body.dnsApiSecret = values.dnsApiSecret.trim()
  return body
}
