import { useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { KeyRound, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, Input, Select } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { SecretOnceDialog } from '@/features/dashboard/components/SecretOnceDialog'
import {
  createUpdateKey,
  revokeUpdateKey,
  updateKeysQueryOptions,
  type NewUpdateKey,
  type UpdateKey,
  type UpdateKeyInput,
} from '../api/updateKeys'
import { errorText } from '../dnsText'

/** The scopes offered: a key for ACME DNS-01 (the usual), or the whole domain. */
const SCOPES = [
  { value: 'acme', label: 'ACME challenges only' },
  { value: 'custom', label: 'Names and types I list' },
  { value: 'all', label: 'The whole domain' },
] as const

type Scope = (typeof SCOPES)[number]['value']

type Algorithm = NonNullable<UpdateKeyInput['algorithm']>

const emptyForm = {
  name: '',
  algorithm: 'hmac-sha256' as Algorithm,
  scope: 'acme' as Scope,
  names: '',
  types: '',
}

function list(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean)
}

function when(iso: string | undefined): string {
  return iso ? new Date(iso).toLocaleString() : 'never'
}

/**
 * The dynamic update card of the DNS tab: TSIG keys with which certbot,
 * lego, cert-manager, external-dns or nsupdate change the domain's records
 * (RFC 2136), each limited to names and types. The secret is shown once.
 */
export function UpdateKeysCard({ domainId, apex }: { domainId: number; apex: string }) {
  const queryClient = useQueryClient()
  const keysQuery = updateKeysQueryOptions(domainId)
  const { data: keys, isPending, isError } = useQuery(keysQuery)
  const [form, setForm] = useState(emptyForm)
  const [error, setError] = useState<string | null>(null)
  const [made, setMade] = useState<NewUpdateKey | null>(null)

  const add = useMutation({
    mutationFn: () => {
      const scope =
        form.scope === 'acme'
          ? { names: ['_acme-challenge'], types: ['TXT'] }
          : form.scope === 'custom'
            ? { names: list(form.names), types: list(form.types).map((t) => t.toUpperCase()) }
            : {}
      return createUpdateKey(domainId, { name: form.name.trim(), algorithm: form.algorithm, ...scope })
    },
    onSuccess: (k) => {
      setForm(emptyForm)
      setError(null)
      setMade(k)
    },
    onError: (e) => setError(errorText(e)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keysQuery.queryKey }),
  })

  const revoke = useMutation({
    mutationFn: (k: UpdateKey) => revokeUpdateKey(domainId, k.id),
    onSuccess: (_, k) => toast({ title: 'Update key revoked', description: `${k.keyName} no longer signs updates.` }),
    onError: (e) => toast({ variant: 'destructive', title: 'Failed to revoke key', description: errorText(e) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keysQuery.queryKey }),
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (form.name.trim() === '') {
      setError('Key name is required')
      return
    }
    add.mutate()
  }

  let body
  if (isPending) {
    body = (
      <div className="flex items-center gap-3 py-6 text-slate-600">
        <Spinner />
        <span>Loading update keys...</span>
      </div>
    )
  } else if (isError) {
    body = <p className="text-sm text-red-700">Failed to load update keys. Please try again.</p>
  } else {
    body = (
      <div className="space-y-6">
        {keys.length === 0 ? (
          <p className="text-sm text-slate-600">No update keys: only you, here and through the API, change {apex}.</p>
        ) : (
          <ul aria-label="Update keys" className="divide-y divide-slate-200 rounded-xl ring-1 ring-slate-200">
            {keys.map((k) => (
              <li key={k.id} className="flex items-start justify-between gap-3 p-3">
                <div className="min-w-0 text-sm">
                  <p className="break-all font-mono font-medium text-slate-900">{k.keyName}</p>
                  <p className="text-slate-600">
                    {k.algorithm} · {k.names.length ? k.names.join(', ') : 'every name'} ·{' '}
                    {k.types.length ? k.types.join(', ') : 'every type'}
                  </p>
                  <p className="text-xs text-slate-500">Last used: {when(k.lastUsedAt)}</p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Revoke ${k.keyName}`}
                  disabled={revoke.isPending}
                  onClick={() => {
                    if (window.confirm(`Revoke ${k.keyName}? Updates signed with it are refused at once.`))
                      revoke.mutate(k)
                  }}
                >
                  <Trash2 className="h-4 w-4" aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        )}
        <form onSubmit={submit} aria-label="Make update key" className="space-y-4" noValidate>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label="Key name" hint={`Signs as NAME.${apex}.`}>
              {(ids) => (
                <Input
                  {...ids}
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="certbot"
                  value={form.name}
                  onChange={(e) => setForm({ ...form, name: e.target.value })}
                />
              )}
            </Field>
            <Field label="Algorithm">
              {(ids) => (
                <Select
                  {...ids}
                  value={form.algorithm}
                  onChange={(e) => setForm({ ...form, algorithm: e.target.value as Algorithm })}
                >
                  <option value="hmac-sha256">HMAC-SHA256</option>
                  <option value="hmac-sha512">HMAC-SHA512</option>
                </Select>
              )}
            </Field>
            <Field
              label="May change"
              hint={
                form.scope === 'acme'
                  ? 'TXT records at _acme-challenge (DNS-01)'
                  : form.scope === 'all'
                    ? 'Every record; it may also read the domain by zone transfer (AXFR), as external-dns does'
                    : undefined
              }
            >
              {(ids) => (
                <Select
                  {...ids}
                  value={form.scope}
                  onChange={(e) => setForm({ ...form, scope: e.target.value as Scope })}
                >
                  {SCOPES.map((s) => (
                    <option key={s.value} value={s.value}>
                      {s.label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </div>
          {form.scope === 'custom' && (
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Names" hint="Relative to the domain, separated by spaces: @ host _acme-challenge">
                {(ids) => (
                  <Input
                    {...ids}
                    autoComplete="off"
                    spellCheck={false}
                    value={form.names}
                    onChange={(e) => setForm({ ...form, names: e.target.value })}
                  />
                )}
              </Field>
              <Field label="Types" hint="Separated by spaces: A AAAA TXT (empty: every type)">
                {(ids) => (
                  <Input
                    {...ids}
                    autoComplete="off"
                    spellCheck={false}
                    value={form.types}
                    onChange={(e) => setForm({ ...form, types: e.target.value })}
                  />
                )}
              </Field>
            </div>
          )}
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? 'Making...' : 'Make update key'}
          </Button>
        </form>
      </div>
    )
  }

  return (
    <Card>
      <CardHeader>
        <div className="flex items-center gap-2">
          <KeyRound className="h-5 w-5 text-brand-600" aria-hidden />
          <CardTitle>Dynamic updates</CardTitle>
        </div>
        <CardDescription>
          TSIG keys for RFC 2136 updates: certbot, lego, cert-manager, external-dns and nsupdate change {apex}'s records
          with them.
        </CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
      {made && (
        <SecretOnceDialog
          title={`${made.key.keyName} is ready`}
          description={`Configure your tool with the key name ${made.key.keyName}, algorithm ${made.key.algorithm} and this secret.`}
          secret={made.secret}
          noun={{ full: 'key secret', short: 'secret' }}
          fieldLabel="New update key secret"
          copiedTitle="Secret copied"
          warning="This is the only time this secret is shown. Store it somewhere safe now: if it is lost, revoke the key and make another."
          onClose={() => setMade(null)}
        />
      )}
    </Card>
  )
}
