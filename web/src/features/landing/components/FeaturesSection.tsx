import {
  ArrowRightLeft,
  BarChart3,
  Code2,
  Layers,
  LayoutDashboard,
  Mail,
  Network,
  ShieldCheck,
  Wallet,
  Zap,
} from 'lucide-react'
import { Section } from './Section'

const features = [
  { icon: Zap, title: 'Instant registration', text: 'Search a name, see its price and make it yours in a few clicks.' },
  {
    icon: Network,
    title: 'DNS management',
    text: 'Edit A, AAAA, CNAME, MX, TXT and more on our authoritative name servers.',
  },
  {
    icon: Mail,
    title: 'Email forwarding',
    text: 'Receive mail at your domain and forward it to the inbox you already use.',
  },
  { icon: ArrowRightLeft, title: 'Domain forwarding', text: 'Point a domain at any website while you build your own.' },
  {
    icon: Wallet,
    title: 'Prepaid wallet',
    text: 'Top up once and pay for registrations and renewals from your balance.',
  },
  { icon: Code2, title: 'Registrar API', text: 'Check and register domains from your own systems with an API key.' },
]

const showcase = [
  {
    icon: LayoutDashboard,
    title: 'End-user dashboard',
    text: 'Everything a domain owner needs in one place.',
    itemIcon: ShieldCheck,
    items: ['Domain management', 'DNS record management', 'Email forwarding', 'Domain forwarding'],
  },
  {
    icon: BarChart3,
    title: 'Registrar dashboard',
    text: 'Tools for partners who register domains for their customers.',
    itemIcon: Layers,
    items: ['Wallet deposits', 'Bulk operations', 'Reports and analytics', 'API key management and logs'],
  },
]

export function FeaturesSection() {
  return (
    <Section
      id="features"
      eyebrow="Features"
      title="Everything you need to run your domains"
      intro="From the first search to DNS records and renewals, Nameport keeps it simple."
      className="bg-slate-50"
    >
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {features.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
            <span className="flex h-10 w-10 items-center justify-center rounded-xl bg-brand-600 text-white">
              <Icon className="h-5 w-5" aria-hidden />
            </span>
            <h3 className="mt-4 text-base font-semibold text-slate-900">{title}</h3>
            <p className="mt-2 text-sm leading-6 text-slate-600">{text}</p>
          </li>
        ))}
      </ul>

      <div className="mt-16 grid gap-6 lg:grid-cols-2">
        {showcase.map(({ icon: Icon, itemIcon: ItemIcon, title, text, items }) => (
          <div key={title} className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
            <div className="flex items-center gap-3 border-b border-slate-200 bg-slate-900 px-6 py-4 text-white">
              <Icon className="h-5 w-5 text-brand-300" aria-hidden />
              <h3 className="font-semibold">{title}</h3>
            </div>
            <div className="p-6">
              <p className="text-sm text-slate-600">{text}</p>
              <ul className="mt-4 grid gap-3 sm:grid-cols-2">
                {items.map((item) => (
                  <li
                    key={item}
                    className="flex items-center gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm font-medium text-slate-800"
                  >
                    <ItemIcon className="h-4 w-4 text-brand-600" aria-hidden />
                    {item}
                  </li>
                ))}
              </ul>
            </div>
          </div>
        ))}
      </div>
    </Section>
  )
}
