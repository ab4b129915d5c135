import { BookOpen, KeyRound, Repeat, Timer } from 'lucide-react'
import { buttonStyles } from '@/components/ui/button'
import { Section } from './Section'

// Sample text only: the landing page never makes these calls.
function apiExample(origin: string) {
  return `// Check whether a domain is available
const check = await fetch('${origin}/v1/domains/check', {
  method: 'POST',
  headers: {
    'Authorization': 'Bearer YOUR_API_KEY',
    'Content-Type': 'application/json'
  },
  body: JSON.stringify({ domain: 'example.inf.nz' })
});

// Register it for one year with your own name servers
const registration = await fetch('${origin}/v1/domains/register', {
  method: 'POST',
  headers: {
    'Authorization': 'Bearer YOUR_API_KEY',
    'Content-Type': 'application/json'
  },
  body: JSON.stringify({
    domain: 'example.inf.nz',
    years: 1,
    nameservers: ['ns1.example.com', 'ns2.example.com']
  })
});`
}

const points = [
  {
    icon: KeyRound,
    title: 'One key per partner',
    text: 'Authenticate every call with the API key from your registrar dashboard.',
  },
  {
    icon: Repeat,
    title: 'Safe retries',
    text: 'Send an Idempotency-Key with a POST and a retried request never registers twice.',
  },
  {
    icon: Timer,
    title: 'Clear rate limits',
    text: 'Generous per-minute limits, with a Retry-After header when you reach them.',
  },
]

export function ApiSection() {
  return (
    <Section
      id="api"
      eyebrow="API"
      title="Automate registrations with the registrar API"
      intro="Plug domain search and registration into your own platform with a simple REST API."
      className="bg-slate-50"
    >
      <div className="grid items-start gap-10 lg:grid-cols-5">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          {points.map(({ icon: Icon, title, text }) => (
            <div key={title} className="flex gap-4">
              <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-brand-600 text-white">
                <Icon className="h-5 w-5" aria-hidden />
              </span>
              <div>
                <h3 className="font-semibold text-slate-900">{title}</h3>
                <p className="mt-1 text-sm leading-6 text-slate-600">{text}</p>
              </div>
            </div>
          ))}
          <a href="/docs" className={buttonStyles({ variant: 'outline' })}>
            <BookOpen className="h-4 w-4" aria-hidden />
            API Documentation
          </a>
        </div>
        <div className="min-w-0 overflow-hidden rounded-2xl bg-slate-950 shadow-xl ring-1 ring-slate-900/10 lg:col-span-3">
          <div className="flex items-center gap-2 border-b border-white/10 px-4 py-3">
            <span className="h-3 w-3 rounded-full bg-red-400/80" aria-hidden />
            <span className="h-3 w-3 rounded-full bg-amber-400/80" aria-hidden />
            <span className="h-3 w-3 rounded-full bg-emerald-400/80" aria-hidden />
            <span className="ml-2 text-xs font-medium text-slate-400">register-domain.js</span>
          </div>
          {/* Focusable so keyboard users can scroll the long lines sideways. */}
          <pre
            tabIndex={0}
            role="region"
            aria-label="Example: register a domain through the API"
            className="overflow-x-auto p-5 text-xs leading-6 text-slate-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-400 sm:text-[13px]"
          >
            <code>{apiExample(window.location.origin)}</code>
          </pre>
        </div>
      </div>
    </Section>
  )
}
