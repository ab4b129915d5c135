import type { HelpRole, HelpTopic } from './topics'

/** The detailed help of one topic (spec: explanation, examples, tips, related topics). */
export interface HelpContent {
  explanation: string
  examples: string[]
  tips: string[]
  relatedTopics: HelpTopic[]
  /** A sentence for readers in a particular role, added to the explanation. */
  forRole?: Partial<Record<HelpRole, string>>
}

/**
 * Nameport's help texts. This module is loaded on demand (see helpAssistant),
 * so its size does not weigh on the landing page.
 */
export const helpContent: Record<HelpTopic, HelpContent> = {
  'domain-registration': {
    explanation:
      'Type the name you want, choose one of our extensions (.inf.nz, .biz.ee or .orgn.uk) and search. If the name is free you can register it at once; the price is taken from your wallet and the domain appears on your dashboard for one year.',
    examples: [
      'mybakery.inf.nz at the regular price of $8/year',
      'acme.biz.ee for a business, acme-trust.orgn.uk for an organisation',
      'A premium name such as go.inf.nz at its own price, e.g. $50/year',
    ],
    tips: [
      'Names use lowercase letters, digits and hyphens, up to 63 characters, and cannot start or end with a hyphen.',
      'Very short names may cost more under length-based pricing.',
      'Add funds to your wallet first so the registration goes through in one step.',
    ],
    relatedTopics: ['pricing', 'length-based-pricing', 'premium-domains', 'wallet'],
    forRole: {
      guest: 'You can search without an account; create a free account to register.',
      registrar: 'As a registrar you pay your wholesale tier price and can register in bulk through the API.',
    },
  },
  'domain-management': {
    explanation:
      'Each domain has its own page with two tabs: DNS Management for its records and Domain Settings for auto-renewal, the transfer lock and its registration details. Domains renew for another term before they expire; after the expiry date there is a grace period of 30 days in which you can still renew.',
    examples: [
      'Point shop.inf.nz at your web host with an A record',
      'Renew a domain from the dashboard before it expires',
      'Check the expiry date and yearly price under Domain Settings',
    ],
    tips: [
      'Keep auto-renew on for domains you rely on, and keep enough in your wallet to pay for it.',
      'Renewing during the 30-day grace period extends the current term, so no time is lost.',
      'The transfer lock stays enabled to protect your domain from unwanted transfers.',
    ],
    relatedTopics: ['dns-records', 'wallet', 'domain-registration'],
  },
  'dns-records': {
    explanation:
      'DNS records tell the internet where your domain points. Each record has a type, a name (@ for the domain itself), content and a TTL in seconds between 300 (5 minutes) and 604800 (one week); the default is 3600. Changes can take up to 48 hours to reach every resolver, usually much less.',
    examples: [
      'A @ 203.0.113.10 for the website on the bare domain',
      'CNAME www shop.inf.nz so www follows the main address',
      'MX @ mail.example.com with priority 10 for email',
      'TXT @ "v=spf1 include:_spf.example.com ~all" for email authentication',
    ],
    tips: [
      'Lower the TTL to 300 a day before a planned move, then raise it again afterwards.',
      'MX records need a priority: a lower number is tried first. Two mail servers with different priorities are two records.',
      'Records of one name and type share one TTL: changing one offers to align the others.',
      'A CNAME cannot sit on @ next to other records; use an A or AAAA record there.',
    ],
    relatedTopics: ['domain-management', 'api-usage'],
  },
  'premium-domains': {
    explanation:
      'Premium domains are short, memorable or keyword-rich names that Nameport sells at an individual yearly price instead of the regular $8. Some carry a discount for a limited time; once it expires the base price applies again. A reserved premium name cannot be registered until it is made available.',
    examples: [
      'A premium name at $50/year',
      'A 20% discount on a $100 name gives $80.00 until the offer ends',
      'Browse them all under View All Premium Domains',
    ],
    tips: [
      'A premium name renews at its premium price, so check it before you register.',
      'Search results mark premium names with a Premium badge.',
    ],
    relatedTopics: ['pricing', 'domain-registration', 'length-based-pricing'],
  },
  wallet: {
    explanation:
      'The wallet is your prepaid balance in US dollars. Deposit between $1 and $10,000 at a time; registrations and renewals are paid from it, and every deposit and purchase appears under Transactions. There is no processing fee.',
    examples: [
      'Deposit $50 (the default) or use a quick amount: $20, $50, $100 or $200',
      'A $8 registration leaves $42.00 of a $50 deposit',
      'Filter Transactions by status (Completed, Pending) or type (Deposits, Purchases)',
    ],
    tips: [
      'Keep enough balance for upcoming renewals so auto-renew never fails.',
      'The overview shows your five most recent transactions; View All opens the full list.',
    ],
    relatedTopics: ['pricing', 'domain-management', 'registrar-account'],
    forRole: {
      registrar: 'Registrars pay wholesale prices from the same wallet, including for API registrations.',
    },
  },
  pricing: {
    explanation:
      'A regular domain costs $8 per year on every extension. Premium names have their own price, and very short names can cost more under length-based pricing. Registrar partners pay wholesale: Basic $6, Premium $5 and Enterprise $4 per domain per year, with monthly allowances of 100, 500 and unlimited domains.',
    examples: [
      'myname.inf.nz: $8/year',
      'A registrar on the Premium tier registering 200 domains: 200 × $5 = $1,000/year',
      'Bulk registration of 10 or more at $7 per domain (an example offer)',
    ],
    tips: [
      'The price shown in the search result is the price you pay; there are no hidden fees.',
      'Renewals cost the same as the registration unless an extension sets its own renewal price.',
    ],
    relatedTopics: ['length-based-pricing', 'premium-domains', 'registrar-account'],
    forRole: {
      registrar: 'Your tier price applies automatically to every registration and renewal you make.',
    },
  },
  'length-based-pricing': {
    explanation:
      'An extension can price names by their length: each rule covers a range of lengths (for example 1-3 characters) with its own yearly price, and names outside every rule pay the base price. Rules may not overlap, so each length has exactly one price.',
    examples: [
      '1 character $50, 2 characters $25, 3 characters $15 (example prices)',
      'A rule for 4-63 characters at the $8 base price',
      'A new rule starts at twice the base price, e.g. $16',
    ],
    tips: [
      'Short names are scarce, which is why they usually cost more.',
      'The search result always shows the final price after length rules.',
    ],
    relatedTopics: ['pricing', 'premium-domains', 'admin-tools'],
  },
  'registrar-account': {
    explanation:
      'A registrar account is for resellers: you buy domains at wholesale prices for your customers, manage them in bulk, follow reports, keep a wallet and automate everything through the API with your API key. Choose Basic ($6, 100 domains a month), Premium ($5, 500 a month) or Enterprise ($4, unlimited).',
    examples: [
      'Apply with Register → Registrar Partner, or Apply Now on a pricing tier',
      'Your API key appears on the API Access tab of the registrar dashboard',
      'Deposit once, then register hundreds of names through the API',
    ],
    tips: [
      'Keep your API key secret; generating a new key invalidates the old one.',
      'Watch your wallet balance badge on the dashboard before bulk runs.',
    ],
    relatedTopics: ['api-usage', 'pricing', 'wallet'],
  },
  'admin-tools': {
    explanation:
      'The admin dashboard configures the platform: premium domains and their discounts, domain extensions with base prices and length-based rules, the advanced configuration of each extension (DNS, contacts, verification, renewal rules), site settings, payment gateways and users. Changes apply to the live site at once.',
    examples: [
      'Add an extension with a $8 base price and a 1-3 character rule at $16',
      'Set a renewal period of 365 days and a 30-day grace period',
      'Add a payment gateway: it starts inactive and in test mode',
    ],
    tips: [
      'Deactivate an extension to take it off sale without deleting it.',
      'Secret keys are stored encrypted and only their last 4 characters are shown; leave them as they are to keep them.',
      'Export premium domains as CSV before large bulk changes.',
    ],
    relatedTopics: ['length-based-pricing', 'premium-domains', 'pricing'],
  },
  'api-usage': {
    explanation:
      'The registrar API lets you check availability, register domains and manage DNS from your own systems. Send your API key in the X-API-Key header with every request. Rate limits: 100 availability checks, 20 registrations and 50 DNS operations per minute.',
    examples: [
      'GET /api/v1/domains/check?name=shop&extension=.inf.nz',
      "fetch(url, { headers: { 'X-API-Key': key } })",
      'A burst of 150 checks: spread it over two minutes to stay under 100 per minute',
    ],
    tips: [
      'Back off and retry when you hit a rate limit instead of retrying at once.',
      'Never put the API key in browser code; call the API from your server.',
    ],
    relatedTopics: ['registrar-account', 'dns-records', 'domain-registration'],
  },
  'not-found': {
    explanation:
      'The address you opened is not a page on Nameport: it may have been removed, renamed or never existed. Use Home to start again, Search Domains to look for a name, or Manage Domains to get to the domains you already own.',
    examples: ['Check the address for typos', 'Dashboard links start at /dashboard or /registrar-dashboard'],
    tips: ['Looking for a domain? Search it on the home page with .inf.nz, .biz.ee or .orgn.uk.'],
    relatedTopics: ['domain-registration', 'domain-management'],
  },
}
