import { Link } from '@tanstack/react-router'
import { useSite } from '@/lib/site'
import { BrandLogo } from './BrandLogo'

/**
 * A footer entry: a page of the app (to, with params or hash), a page the
 * server serves itself (href: /docs is not the app's), or none yet.
 */
type FooterLink = {
  label: string
  to?: '/' | '/pages/$slug'
  slug?: string
  hash?: string
  href?: string
}

const columns: { title: string; links: FooterLink[] }[] = [
  {
    title: 'Services',
    links: [
      { label: 'Domain Registration' },
      { label: 'DNS Management' },
      { label: 'Email Forwarding' },
      { label: 'Domain Forwarding' },
    ],
  },
  { title: 'Company', links: [{ label: 'About Us' }, { label: 'Careers' }, { label: 'Blog' }, { label: 'Press' }] },
  {
    title: 'Support',
    links: [
      { label: 'Help Center' },
      { label: 'Contact Support', to: '/', hash: 'contact' },
      { label: 'API Documentation', href: '/docs' },
      { label: 'Status Page' },
    ],
  },
]

// The legal pages are pages admins edit (Admin Dashboard, Pages).
const legalLinks: FooterLink[] = [
  { label: 'Terms of Service', to: '/pages/$slug', slug: 'terms' },
  { label: 'Privacy Policy', to: '/pages/$slug', slug: 'privacy' },
  { label: 'Cookie Policy', to: '/pages/$slug', slug: 'cookies' },
]

/**
 * An entry whose page does not exist yet is plain text, as the spec lists
 * it: a link that leads nowhere would be a dead end to click and to tab to.
 */
function FooterEntry({ link, className }: { link: FooterLink; className: string }) {
  const linked = `${className} transition hover:text-white`
  if (link.href) {
    return (
      <a href={link.href} className={linked}>
        {link.label}
      </a>
    )
  }
  if (link.to === '/pages/$slug' && link.slug) {
    return (
      <Link to="/pages/$slug" params={{ slug: link.slug }} className={linked}>
        {link.label}
      </Link>
    )
  }
  if (link.to === '/') {
    return (
      <Link to="/" hash={link.hash} className={linked}>
        {link.label}
      </Link>
    )
  }
  return <span className={className}>{link.label}</span>
}

export function SiteFooter() {
  const site = useSite()
  // Only the platforms an admin has linked (Site Settings, Social): an icon
  // that leads nowhere is a dead link.
  const social = (site?.social ?? []).flatMap(({ platform, url }) => {
    const link = socialLinks.find((l) => l.platform === platform)
    return link ? [{ ...link, url }] : []
  })
  const contact = [
    site?.contactEmail && { label: site.contactEmail, href: `mailto:${site.contactEmail}` },
    site?.contactPhone && { label: site.contactPhone, href: `tel:${site.contactPhone.replace(/[^+\d]/g, '')}` },
  ].filter((c): c is { label: string; href: string } => !!c)
  return (
    <footer className="border-t border-slate-800 bg-slate-950 text-slate-400">
      <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 lg:px-8">
        <div className="grid gap-10 lg:grid-cols-5">
          <div className="lg:col-span-2">
            <BrandLogo inverted />
            <p className="mt-4 max-w-xs text-sm leading-6">
              {site?.tagline ?? 'Your trusted partner for domain registration and management.'}
            </p>
            {(contact.length > 0 || site?.contactAddress) && (
              <address className="mt-4 space-y-1 text-sm not-italic">
                {contact.map((c) => (
                  <a key={c.href} href={c.href} className="block break-all transition hover:text-white">
                    {c.label}
                  </a>
                ))}
                {site?.contactAddress && <p className="whitespace-pre-line">{site.contactAddress}</p>}
              </address>
            )}
            {social.length > 0 && (
              <div className="mt-6 flex gap-3">
                {social.map(({ label, icon, url }) => (
                  <a
                    key={label}
                    href={url}
                    aria-label={label}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="rounded-lg p-2 text-slate-400 ring-1 ring-slate-800 transition hover:bg-slate-900 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-400"
                  >
                    {icon}
                  </a>
                ))}
              </div>
            )}
          </div>
          <div className="grid grid-cols-2 gap-8 sm:grid-cols-3 lg:col-span-3">
            {columns.map((column) => (
              <div key={column.title}>
                <h2 className="text-sm font-semibold text-white">{column.title}</h2>
                <ul className="mt-4 space-y-3">
                  {column.links.map((link) => (
                    <li key={link.label}>
                      <FooterEntry link={link} className="text-sm" />
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        </div>
        <div className="mt-12 flex flex-col gap-4 border-t border-slate-800 pt-8 text-sm sm:flex-row sm:items-center sm:justify-between">
          <p>
            © {new Date().getFullYear()} {site?.name ?? 'Nameport'}. All rights reserved.
          </p>
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            {legalLinks.map((link) => (
              <li key={link.label}>
                <FooterEntry link={link} className="" />
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  )
}

const iconClass = 'h-4 w-4 fill-current'

// Brand marks are drawn inline: the icon set used elsewhere has no brand logos.
const socialLinks = [
  {
    platform: 'x',
    label: 'X (Twitter)',
    icon: (
      <svg viewBox="0 0 24 24" className={iconClass} aria-hidden>
        <path d="M18.9 2H22l-6.8 7.8L23 22h-6.2l-4.8-6.3L6.4 22H3.3l7.3-8.3L2.8 2h6.3l4.4 5.8L18.9 2Zm-1.1 18.2h1.7L7.1 3.7H5.3l12.5 16.5Z" />
      </svg>
    ),
  },
  {
    platform: 'github',
    label: 'GitHub',
    icon: (
      <svg viewBox="0 0 24 24" className={iconClass} aria-hidden>
        <path d="M12 .5a11.5 11.5 0 0 0-3.6 22.4c.6.1.8-.3.8-.6v-2.1c-3.2.7-3.9-1.5-3.9-1.5-.5-1.3-1.3-1.7-1.3-1.7-1-.7.1-.7.1-.7 1.2.1 1.8 1.2 1.8 1.2 1 1.8 2.8 1.3 3.5 1 .1-.8.4-1.3.7-1.6-2.6-.3-5.3-1.3-5.3-5.7 0-1.3.5-2.3 1.2-3.1-.1-.3-.5-1.5.1-3.1 0 0 1-.3 3.2 1.2a11 11 0 0 1 5.8 0c2.2-1.5 3.2-1.2 3.2-1.2.6 1.6.2 2.8.1 3.1.8.8 1.2 1.8 1.2 3.1 0 4.4-2.7 5.4-5.3 5.7.4.4.8 1.1.8 2.2v3.2c0 .3.2.7.8.6A11.5 11.5 0 0 0 12 .5Z" />
      </svg>
    ),
  },
  {
    platform: 'linkedin',
    label: 'LinkedIn',
    icon: (
      <svg viewBox="0 0 24 24" className={iconClass} aria-hidden>
        <path d="M20.4 20.5h-3.6v-5.6c0-1.3 0-3-1.8-3s-2.1 1.4-2.1 2.9v5.7H9.4V9h3.4v1.6h.1c.5-.9 1.6-1.8 3.4-1.8 3.6 0 4.3 2.4 4.3 5.5v6.2ZM5.3 7.4a2.1 2.1 0 1 1 0-4.2 2.1 2.1 0 0 1 0 4.2Zm1.8 13.1H3.6V9h3.5v11.5ZM22.2 0H1.8C.8 0 0 .8 0 1.7v20.6c0 .9.8 1.7 1.8 1.7h20.4c1 0 1.8-.8 1.8-1.7V1.7C24 .8 23.2 0 22.2 0Z" />
      </svg>
    ),
  },
  {
    platform: 'facebook',
    label: 'Facebook',
    icon: (
      <svg viewBox="0 0 24 24" className={iconClass} aria-hidden>
        <path d="M24 12.1C24 5.4 18.6 0 12 0S0 5.4 0 12.1c0 6 4.4 11 10.1 11.9v-8.4H7.1v-3.5h3V9.4c0-3 1.8-4.7 4.5-4.7 1.3 0 2.7.2 2.7.2v3h-1.5c-1.5 0-2 .9-2 1.9v2.3h3.3l-.5 3.5h-2.8V24C19.6 23.1 24 18.1 24 12.1Z" />
      </svg>
    ),
  },
]
