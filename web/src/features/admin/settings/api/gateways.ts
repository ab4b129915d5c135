import { createSetting, updateSetting, type SiteSetting } from './settings'

/** The setting whose value is the JSON list of gateways. */
export const GATEWAYS_KEY = 'payment_gateways'

export type GatewayType = 'paypal' | 'bank_transfer' | 'credit_card' | 'mobile_payment' | 'cryptocurrency'

export interface GatewayField {
  name: string
  label: string
  type: 'text' | 'password' | 'textarea' | 'select' | 'checkbox'
  required: boolean
  placeholder?: string
  options?: string[]
}

export type GatewaySettingValue = string | boolean

/** A payment gateway (spec section 3); its id is its type. */
export interface PaymentGateway {
  id: GatewayType
  name: string
  description: string
  active: boolean
  testMode: boolean
  settings: Record<string, GatewaySettingValue>
  displayOrder: number
  fields: GatewayField[]
}

interface GatewayTemplate {
  name: string
  description: string
  fields: GatewayField[]
}

/**
 * The gateway types with their field sets (spec section 3), without Stripe:
 * Stripe's keys are the server's flags (--stripe-secret-key…), the one place
 * billing reads them, and PaymentModeNotice says so.
 */
export const GATEWAY_TEMPLATES: Record<GatewayType, GatewayTemplate> = {
  paypal: {
    name: 'PayPal',
    description: 'PayPal balance and cards through PayPal checkout.',
    fields: [
      { name: 'client_id', label: 'Client ID', type: 'text', required: true },
      { name: 'client_secret', label: 'Client Secret', type: 'password', required: true },
      { name: 'allow_guest_checkout', label: 'Allow guest checkout', type: 'checkbox', required: false },
    ],
  },
  bank_transfer: {
    name: 'Bank Transfer',
    description: 'Customers pay by direct bank transfer; funds are credited once received.',
    fields: [
      { name: 'account_name', label: 'Account Name', type: 'text', required: true },
      { name: 'account_number', label: 'Account Number', type: 'text', required: true },
      { name: 'bank_name', label: 'Bank Name', type: 'text', required: true },
      { name: 'routing_number', label: 'Routing Number', type: 'text', required: true },
      { name: 'instructions', label: 'Instructions', type: 'textarea', required: false },
    ],
  },
  credit_card: {
    name: 'Credit Card',
    description: 'Cards processed by your own staff or terminal.',
    fields: [
      {
        name: 'processor',
        label: 'Processing',
        type: 'select',
        required: true,
        options: ['Manual', 'Phone', 'Terminal'],
      },
      { name: 'instructions', label: 'Instructions', type: 'textarea', required: false },
    ],
  },
  mobile_payment: {
    name: 'Mobile Payment',
    description: 'Wallet payments from phones.',
    fields: [
      {
        name: 'provider',
        label: 'Provider',
        type: 'select',
        required: true,
        options: ['Apple Pay', 'Google Pay', 'Samsung Pay', 'Other'],
      },
      { name: 'merchant_id', label: 'Merchant ID', type: 'text', required: true },
    ],
  },
  cryptocurrency: {
    name: 'Cryptocurrency',
    description: 'Payments in crypto to your wallet.',
    fields: [
      { name: 'wallet_address', label: 'Wallet Address', type: 'text', required: true },
      { name: 'accept_bitcoin', label: 'Accept Bitcoin', type: 'checkbox', required: false },
      { name: 'accept_ethereum', label: 'Accept Ethereum', type: 'checkbox', required: false },
      { name: 'accept_other', label: 'Accept other currencies', type: 'checkbox', required: false },
    ],
  },
}

export const GATEWAY_TYPES = Object.keys(GATEWAY_TEMPLATES) as GatewayType[]

/** A new gateway of type: inactive and in test mode. */
export function newGateway(type: GatewayType, displayOrder: number): PaymentGateway {
  const t = GATEWAY_TEMPLATES[type]
  const settings: Record<string, GatewaySettingValue> = {}
  for (const f of t.fields) {
    if (f.type === 'checkbox') settings[f.name] = false
    else if (f.type === 'select') settings[f.name] = f.options?.[0] ?? ''
    else settings[f.name] = ''
  }
  return {
    id: type,
    name: t.name,
    description: t.description,
    active: false,
    testMode: true,
    settings,
    displayOrder,
    fields: t.fields,
  }
}

/** The gateways stored in the setting; a value that does not parse is an empty list. */
export function parseGateways(setting: SiteSetting | undefined): PaymentGateway[] {
  if (!setting) return []
  try {
    const list: unknown = JSON.parse(setting.value)
    if (!Array.isArray(list)) return []
    return (list as PaymentGateway[])
      .filter((g) => g && typeof g === 'object' && g.id in GATEWAY_TEMPLATES)
      .map((g) => ({ ...g, settings: g.settings ?? {}, fields: GATEWAY_TEMPLATES[g.id].fields }))
      .sort((a, b) => (a.displayOrder ?? 0) - (b.displayOrder ?? 0))
  } catch {
    return []
  }
}

/** Labels of the required fields the gateway leaves empty. */
export function missingRequired(gateway: PaymentGateway): string[] {
  return gateway.fields
    .filter((f) => f.required && f.type !== 'checkbox')
    .filter((f) => String(gateway.settings[f.name] ?? '').trim() === '')
    .map((f) => f.label)
}

/**
 * Saves the list as the value of payment_gateways: PATCH when the setting
 * exists, else POST. Secrets come back masked; a mask sent back keeps the
 * stored secret.
 */
export async function saveGateways(existing: SiteSetting | undefined, gateways: PaymentGateway[]) {
  const value = JSON.stringify(gateways)
  if (existing) return updateSetting(existing.id, { value })
  return createSetting({
    key: GATEWAYS_KEY,
    value,
    category: 'payment',
    description: 'Payment gateways offered to customers',
    isPublic: false,
  })
}
