import { useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ShieldCheck, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Field, Input, Select } from '@/components/ui/form'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/toast/toastStore'
import { createDs, deleteDs, dsQueryOptions, DS_ALGORITHMS, DS_DIGEST_TYPES, type DsRecord } from '../api/ds'
import { errorText } from '../dnsText'

const emptyForm = { keyTag: '', algorithm: '13', digestType: '2', digest: '' }

/**
 * The DNSSEC card of the DNS tab. A domain Nameport serves is signed by
 * Nameport; a delegated one (NS records at its apex) gets DS records here,
 * the digest of the key its own name servers sign it with.
 */
export function DnssecCard({ domainId, apex, delegated }: { domainId: number; apex: string; delegated: boolean }) {
  const queryClient = useQueryClient()
  const dsQuery = dsQueryOptions(domainId)
  const { data: list, isPending, isError } = useQuery({ ...dsQuery, enabled: delegated })
  const [form, setForm] = useState(emptyForm)
  const [error, setError] = useState<string | null>(null)

  const add = useMutation({
    mutationFn: () =>
      createDs(domainId, {
        keyTag: Number(form.keyTag),
        algorithm: Number(form.algorithm),
        digestType: Number(form.digestType),
        digest: form.digest,
      }),
    onSuccess: (ds) => {
      setForm(emptyForm)
      setError(null)
      toast({ title: 'DS record added', description: `Key tag ${ds.keyTag} is published for ${apex}.` })
    },
    onError: (e) => setError(errorText(e)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: dsQuery.queryKey }),
  })

  const remove = useMutation({
    mutationFn: (ds: DsRecord) => deleteDs(domainId, ds.id),
    onSuccess: (_, ds) =>
      toast({ title: 'DS record deleted', description: `Key tag ${ds.keyTag} is no longer published.` }),
    onError: (e) => toast({ variant: 'destructive', title: 'Failed to delete DS record', description: errorText(e) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: dsQuery.queryKey }),
  })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const tag = Number(form.keyTag)
    if (form.keyTag.trim() === '' || !Number.isInteger(tag) || tag < 0 || tag > 65535) {
      setError('Key tag must be from 0 to 65535')
      return
    }
    if (form.digest.trim() === '') {
      setError('Digest is required')
      return
    }
    add.mutate()
  }

  let body
  if (!delegated) {
    body = (
      <p className="text-sm text-slate-600">
        Nameport's name servers serve {apex} and sign its records. DS records are for a domain delegated to other name
        servers: add NS records for {apex} first.
      </p>
    )
  } else if (isPending) {
    body = (
      <div className="flex items-center gap-3 py-6 text-slate-600">
        <Spinner />
        <span>Loading DS records...</span>
      </div>
    )
  } else if (isError) {
    body = <p className="text-sm text-red-700">Failed to load DS records. Please try again.</p>
  } else {
    body = (
      <div className="space-y-6">
        {list.length === 0 ? (
          <p className="text-sm text-slate-600">No DS records: resolvers treat {apex} as unsigned.</p>
        ) : (
          <ul aria-label="DS records" className="divide-y divide-slate-200 rounded-xl ring-1 ring-slate-200">
            {list.map((ds) => (
              <li key={ds.id} className="flex items-start justify-between gap-3 p-3">
                <div className="min-w-0 text-sm">
                  <p className="font-medium text-slate-900">
                    Key tag {ds.keyTag} · algorithm {ds.algorithm} · digest type {ds.digestType}
                  </p>
                  <p className="break-all font-mono text-xs text-slate-600">{ds.digest}</p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Delete DS record ${ds.keyTag}`}
                  disabled={remove.isPending}
                  onClick={() => {
                    if (window.confirm('Are you sure you want to delete this DS record?')) remove.mutate(ds)
                  }}
                >
                  <Trash2 className="h-4 w-4" aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        )}
        <form onSubmit={submit} aria-label="Add DS record" className="space-y-4" noValidate>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label="Key tag">
              {(ids) => (
                <Input
                  {...ids}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={65535}
                  value={form.keyTag}
                  onChange={(e) => setForm({ ...form, keyTag: e.target.value })}
                />
              )}
            </Field>
            <Field label="Algorithm">
              {(ids) => (
                <Select
                  {...ids}
                  value={form.algorithm}
                  onChange={(e) => setForm({ ...form, algorithm: e.target.value })}
                >
                  {DS_ALGORITHMS.map((a) => (
                    <option key={a.value} value={a.value}>
                      {a.label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Digest type">
              {(ids) => (
                <Select
                  {...ids}
                  value={form.digestType}
                  onChange={(e) => setForm({ ...form, digestType: e.target.value })}
                >
                  {DS_DIGEST_TYPES.map((d) => (
                    <option key={d.value} value={d.value}>
                      {d.label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </div>
          <Field label="Digest" error={error ?? undefined} hint="Hexadecimal, as your DNS provider shows it.">
            {(ids) => (
              <Input
                {...ids}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                value={form.digest}
                onChange={(e) => setForm({ ...form, digest: e.target.value })}
              />
            )}
          </Field>
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? 'Adding...' : 'Add DS record'}
          </Button>
        </form>
      </div>
    )
  }

  return (
    <Card>
      <CardHeader>
        <div className="flex items-center gap-2">
          <ShieldCheck className="h-5 w-5 text-brand-600" aria-hidden />
          <CardTitle>DNSSEC</CardTitle>
        </div>
        <CardDescription>DS records link {apex}'s own DNSSEC keys to the registry.</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  )
}
