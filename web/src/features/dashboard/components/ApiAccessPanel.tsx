import { useEffect, useRef, useState } from 'react'
import { BookOpen, Check, Copy, ShieldAlert } from 'lucide-react'
import { Button, buttonStyles } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { copyText } from '@/lib/clipboard'
import { ApiKeysCard } from './ApiKeysCard'
import { GenerateKeyDialog } from './GenerateKeyDialog'

const COPIED_MS = 3000

const rateLimits = [
  { label: 'Domain availability checks', limit: '100 requests per minute' },
  { label: 'Domain registrations', limit: '20 requests per minute' },
  { label: 'DNS operations', limit: '50 requests per minute' },
]

/** The JavaScript example: check a name with the /v1 API, then register it. */
function exampleCode(origin: string, apiKey: string) {
  return `const apiKey = '${apiKey}';

// 1. Check that the name is free.
const check = await fetch('${origin}/v1/domains/check', {
  method: 'POST',
  headers: {
    'Content-Type': 'application/json',
    'X-API-Key': apiKey
  },
  body: JSON.stringify({ domain: 'example.inf.nz' })
});
const availability = await check.json();
console.log(availability);

// 2. Register it for a year, paid from your wallet.
if (availability.available) {
  // Retries with the same Idempotency-Key register the domain once:
  // after a timeout or a network error, resend with this same key.
  const idempotencyKey = crypto.randomUUID();
  const response = await fetch('${origin}/v1/domains/register', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-API-Key': apiKey,
      'Idempotency-Key': idempotencyKey
    },
    body: JSON.stringify({
      domain: 'example.inf.nz',
      years: 1,
      nameservers: ['ns1.example.com', 'ns2.example.com']
    })
  });
  const registration = await response.json();
  console.log(registration);
}`
}

export function ApiAccessPanel({ apiKey }: { apiKey: string }) {
  // Which key was copied: a new key shows its copy button afresh.
  const [copiedKey, setCopiedKey] = useState<string | null>(null)
  const keyCopied = copiedKey === apiKey
  const resetTimer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(resetTimer.current), [])
  const code = exampleCode(window.location.origin, apiKey)

  const copyKey = async () => {
    try {
      await copyText(apiKey)
    } catch {
      toast({ variant: 'destructive', title: 'Copy failed', description: 'Select the key and copy it by hand.' })
      return
    }
    setCopiedKey(apiKey)
    clearTimeout(resetTimer.current)
    resetTimer.current = setTimeout(() => setCopiedKey(null), COPIED_MS)
    toast({ title: 'API Key copied', description: 'The API key is on your clipboard.' })
  }

  const copyCode = async () => {
    try {
      await copyText(code)
      toast({ title: 'Code copied', description: 'The example is on your clipboard.' })
    } catch {
      toast({ variant: 'destructive', title: 'Copy failed', description: 'Select the code and copy it by hand.' })
    }
  }

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="min-w-0 space-y-6 lg:col-span-2">
        <Card>
          <CardHeader>
            <CardTitle>API Key</CardTitle>
            <CardDescription>Use this key to call the Nameport registrar API from your own systems.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <div className="flex gap-2">
              <label htmlFor="api-key" className="sr-only">
                API key
              </label>
              <Input
                id="api-key"
                value={apiKey}
                readOnly
                className="font-mono"
                onFocus={(event) => event.target.select()}
              />
              <Button variant="outline" onClick={copyKey} aria-label={keyCopied ? 'API key copied' : 'Copy API key'}>
                {keyCopied ? (
                  <Check className="h-4 w-4 text-emerald-600" aria-hidden />
                ) : (
                  <Copy className="h-4 w-4" aria-hidden />
                )}
                {keyCopied ? 'Copied' : 'Copy'}
              </Button>
            </div>
            <div className="flex flex-col gap-3 rounded-xl bg-amber-50 p-4 ring-1 ring-amber-200 sm:flex-row sm:items-center sm:justify-between">
              <p className="flex gap-2 text-sm text-amber-900">
                <ShieldAlert className="h-4 w-4 shrink-0 translate-y-0.5" aria-hidden />
                Generating a new key will invalidate your existing key.
              </p>
              <GenerateKeyDialog />
            </div>
          </CardContent>
        </Card>

        <ApiKeysCard />

        <Card>
          <CardHeader className="flex flex-col items-start gap-3 space-y-0 sm:flex-row sm:justify-between sm:gap-4">
            <div className="space-y-1">
              <CardTitle>JavaScript example</CardTitle>
              <CardDescription>Check that a domain is free, then register it with your key.</CardDescription>
            </div>
            <Button variant="outline" size="sm" onClick={copyCode}>
              <Copy className="h-4 w-4" aria-hidden />
              Copy code
            </Button>
          </CardHeader>
          <CardContent>
            {/* Focusable so keyboard users can scroll the long lines sideways. */}
            <pre
              tabIndex={0}
              role="region"
              aria-label="JavaScript example"
              className="overflow-x-auto rounded-xl bg-slate-950 p-4 text-[13px] leading-6 text-slate-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-400"
            >
              <code>{code}</code>
            </pre>
          </CardContent>
        </Card>
      </div>

      <div className="min-w-0 space-y-6">
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Authentication</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm text-slate-600">
              Send your API key in the{' '}
              <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">X-API-Key</code>{' '}
              header of every request.
            </p>
            <p className="mt-2 text-sm text-slate-600">
              A key answers 403 to calls outside its scopes or from an address it does not allow; an expired or revoked
              key answers 401.
            </p>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Rate limits</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="divide-y divide-slate-100 text-sm">
              {rateLimits.map(({ label, limit }) => (
                <li key={label} className="flex flex-col py-2.5 first:pt-0 last:pb-0">
                  <span className="text-slate-600">{label}</span>
                  <span className="font-medium text-slate-900">{limit}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <a href="/docs" className={buttonStyles({ className: 'w-full' })}>
          <BookOpen className="h-4 w-4" aria-hidden />
          View Complete API Documentation
        </a>
      </div>
    </div>
  )
}
