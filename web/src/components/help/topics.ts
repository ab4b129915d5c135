/**
 * The help topics and their one-line built-in texts. Kept small because every
 * page loads it; the detailed content lives in helpContent.ts and is fetched
 * as a separate chunk the first time someone expands a help icon.
 */
export const helpTopics = {
  'domain-registration': {
    title: 'Domain registration',
    summary: 'Search a name, pick .inf.nz, .biz.ee or .orgn.uk, and register it for a year from $8.',
  },
  'domain-management': {
    title: 'Domain management',
    summary: 'Open a domain to manage its DNS records, renewal and settings.',
  },
  'dns-records': {
    title: 'DNS records',
    summary: 'DNS records point your domain at websites, mail servers and other services.',
  },
  'premium-domains': {
    title: 'Premium domains',
    summary: 'Premium domains are short or memorable names with their own yearly price.',
  },
  wallet: {
    title: 'Wallet',
    summary: 'Your prepaid balance: deposit funds once, then pay for registrations and renewals from it.',
  },
  pricing: {
    title: 'Pricing',
    summary: 'Regular domains cost $8 a year; registrar partners pay wholesale prices from $6 down to $4.',
  },
  'length-based-pricing': {
    title: 'Length-based pricing',
    summary: 'Very short names can cost more: an extension may price names by their length.',
  },
  'registrar-account': {
    title: 'Registrar account',
    summary: 'Registrar partners resell domains at wholesale prices, with bulk tools and API access.',
  },
  'admin-tools': {
    title: 'Admin tools',
    summary: 'Configure extensions, premium names, prices, site settings and payment gateways.',
  },
  'api-usage': {
    title: 'API usage',
    summary: 'Registrars automate searches, registrations and DNS with the API, using the X-API-Key header.',
  },
  'not-found': {
    title: 'Page not found',
    summary: 'This address does not exist here. Go home, search for a domain or manage the ones you have.',
  },
} as const

export type HelpTopic = keyof typeof helpTopics
export type HelpRole = 'guest' | 'user' | 'registrar' | 'admin'

/** What a help request knows about where it was asked. */
export interface HelpRequestContext {
  topic: string
  userAction?: string
  currentPage?: string
  userRole?: HelpRole
}

export function isHelpTopic(topic: string): topic is HelpTopic {
  return Object.hasOwn(helpTopics, topic)
}

/** The plain built-in help text of a topic. */
export function basicHelpText(topic: string): string {
  return isHelpTopic(topic) ? helpTopics[topic].summary : 'No help content available for this topic.'
}

/** The help role the app starts with, from the first path segment. */
export function helpRoleFromPath(pathname: string): HelpRole {
  const section = pathname.split('/').filter(Boolean)[0] ?? ''
  if (section === 'admin-dashboard') return 'admin'
  if (section === 'registrar-dashboard') return 'registrar'
  if (section === 'dashboard' || section === 'domain-management' || section === 'wallet') return 'user'
  return 'guest'
}
