import { Fragment, useEffect, useMemo, useRef, useState, type ChangeEvent, type ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { ProgressBar } from '@tremor/react'
import { Pencil, Trash2, Upload } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { Field, Input, Select, Textarea } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { formatDate, formatUsd } from '@/lib/format'
import {
  bulkCheck,
  bulkErrorText,
  bulkJobQueryOptions,
  keepTTLs,
  MAX_NAMES,
  newRequestKey,
  ownDomainsQueryOptions,
  parseNames,
  parseRecordLines,
  recordLines,
  templatesQueryOptions,
  useCreateTemplate,
  useDeleteTemplate,
  useUpdateTemplate,
  useJobFinished,
  useStartBulkJob,
  type BulkCheck,
  type BulkCheckResult,
  type BulkJob,
  type BulkJobRequest,
  type DNSTemplate,
} from '../api/bulk'

/** Cents of a dollar amount, so that totals add up exactly. */
const cents = (dollars: number) => Math.round(dollars * 100)

const REASONS: Record<string, string> = {
  registered: 'Taken',
  reserved: 'Reserved',
  premium_reserved: 'Reserved',
}

/** A check result's status: available, why not, or the name's own error. */
function Availability({ result }: { result: BulkCheckResult }) {
  if (result.error) return <span className="text-sm text-red-700">{result.error}</span>
  if (result.available) return <Badge tone="success">Available</Badge>
  return <Badge tone="muted">{REASONS[result.reason ?? ''] ?? 'Not available'}</Badge>
}

/**
 * A table row's domain name, which wraps on a narrow screen after a dot or a
 * hyphen rather than inside a word (a word longer than the line still
 * breaks, as a last resort).
 */
function DomainHeader({ domain, children }: { domain: string; children?: ReactNode }) {
  const parts = domain.split(/(?<=[.-])/)
  return (
    <th scope="row" className="break-words py-2 pr-3 font-medium text-slate-900">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
      {children}
    </th>
  )
}

const kindLabel: Record<BulkJob['kind'], string> = {
  register: 'Registration',
  renew: 'Renewal',
  auto_renew: 'Auto-renew',
  dns_template: 'DNS template',
}

/** What a row's success is called, by the job's kind. */
const doneLabel: Record<BulkJob['kind'], string> = {
  register: 'Registered',
  renew: 'Renewed',
  auto_renew: 'Updated',
  dns_template: 'Applied',
}

/**
 * A job's progress, polled while it runs, and each row's result: done or
 * refused and why. When it finishes, the wallet and the domain list are read
 * again.
 */
export function BulkJobView({ id, onClose }: { id: number; onClose: () => void }) {
  const job = useQuery(bulkJobQueryOptions(id))
  const finished = useJobFinished()
  const state = job.data?.state
  useEffect(() => {
    if (state === 'done') finished()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state])
  if (job.isPending) return <p className="text-sm text-slate-500">Loading the job...</p>
  if (job.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        The job could not be loaded. {bulkErrorText(job.error)}
      </p>
    )
  }
  const j = job.data
  const percent = j.count > 0 ? Math.round((j.done / j.count) * 100) : 100
  return (
    <section aria-label={`${kindLabel[j.kind]} job`} className="space-y-4 rounded-lg border border-slate-200 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span id={`job-${j.id}-label`} className="font-medium text-slate-900">
          {kindLabel[j.kind]} of {j.count} {j.count === 1 ? 'domain' : 'domains'}
        </span>
        <span className="text-slate-600" role="status">
          {j.state === 'done' ? 'Finished' : j.state === 'queued' ? 'Queued' : 'Running'}: {j.done} of {j.count} done
          {' · '}
          {j.succeeded} {doneLabel[j.kind].toLowerCase()}, {j.failed} refused
        </span>
      </div>
      <ProgressBar
        value={percent}
        color={j.failed > 0 && j.state === 'done' ? 'amber' : undefined}
        role="progressbar"
        aria-labelledby={`job-${j.id}-label`}
        aria-valuemin={0}
        aria-valuemax={j.count}
        aria-valuenow={j.done}
        aria-valuetext={`${j.done} of ${j.count}`}
      />
      {(j.kind === 'register' || j.kind === 'renew') && (
        <p className="text-sm text-slate-600">
          Charged {formatUsd(j.charged)} of the {formatUsd(j.total)} confirmed; refused rows cost nothing.
        </p>
      )}
      <div className="max-h-96 overflow-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Results</caption>
          <thead className="sticky top-0 bg-white text-xs uppercase text-slate-500">
            <tr>
              <th scope="col" className="py-2 pr-3">
                Domain
              </th>
              <th scope="col" className="py-2 pr-3">
                Result
              </th>
              {(j.kind === 'register' || j.kind === 'renew') && (
                <th scope="col" className="py-2 text-right">
                  Charged
                </th>
              )}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {(j.rows ?? []).map((r) => (
              <tr key={r.position} className="align-top">
                <DomainHeader domain={r.domain} />
                <td className="py-2 pr-3">
                  {r.state === 'succeeded' ? (
                    <Badge tone="success">{doneLabel[j.kind]}</Badge>
                  ) : r.state === 'failed' ? (
                    <span>
                      <Badge className="bg-red-50 text-red-700 ring-red-200">Refused</Badge>
                      <span className="mt-1 block text-slate-600">{r.message}</span>
                    </span>
                  ) : (
                    <Badge tone="muted">Waiting</Badge>
                  )}
                </td>
                {(j.kind === 'register' || j.kind === 'renew') && (
                  <td className="py-2 text-right tabular-nums">{formatUsd(r.charged)}</td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {j.state === 'done' && (
        <Button variant="outline" size="sm" onClick={onClose}>
          Close
        </Button>
      )}
    </section>
  )
}

/** Starts a job with one key per confirmation, and shows it. */
function useJob() {
  const start = useStartBulkJob()
  const [jobId, setJobId] = useState<number | null>(null)
  const run = (request: BulkJobRequest, key: string, after?: () => void) =>
    start.mutate(
      { request, key },
      {
        onSuccess: (job) => {
          setJobId(job.id)
          after?.()
        },
        onError: (error) => toast({ variant: 'destructive', title: 'Error', description: bulkErrorText(error) }),
      },
    )
  return { run, pending: start.isPending, jobId, close: () => setJobId(null) }
}

/**
 * Bulk registration: paste names or upload a .txt/.csv file, check them all,
 * choose the available ones, confirm the total once, then follow the job.
 */
function BulkRegister() {
  const [text, setText] = useState('')
  const [checked, setChecked] = useState<BulkCheck | null>(null)
  const [chosen, setChosen] = useState<Set<string>>(new Set())
  const [checking, setChecking] = useState(false)
  const [error, setError] = useState<string | undefined>()
  const [confirm, setConfirm] = useState<string | null>(null) // the confirmation's request key
  const fileRef = useRef<HTMLInputElement>(null)
  const job = useJob()

  const names = useMemo(() => parseNames(text), [text])
  const results = checked?.results ?? []
  const available = results.filter((r) => r.available)
  const totalCents = available.filter((r) => chosen.has(r.domain)).reduce((sum, r) => sum + cents(r.price), 0)
  const count = available.filter((r) => chosen.has(r.domain)).length

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    if (!file) return
    setText(await file.text())
    setChecked(null)
    e.target.value = ''
  }

  const onCheck = async () => {
    setError(undefined)
    if (names.length === 0) return setError('Enter at least one domain name')
    if (names.length > MAX_NAMES)
      return setError(`At most ${MAX_NAMES.toLocaleString('en-US')} names at a time; split the list`)
    setChecking(true)
    try {
      const result = await bulkCheck(names)
      setChecked(result)
      setChosen(new Set((result.results ?? []).filter((r) => r.available).map((r) => r.domain)))
    } catch (err) {
      setError(bulkErrorText(err))
    } finally {
      setChecking(false)
    }
  }

  const toggle = (domain: string) =>
    setChosen((prev) => {
      const next = new Set(prev)
      if (next.has(domain)) next.delete(domain)
      else next.add(domain)
      return next
    })
  const allChosen = available.length > 0 && count === available.length

  const onRegister = () => {
    if (!confirm) return
    const list = available.filter((r) => chosen.has(r.domain)).map((r) => r.domain)
    job.run({ kind: 'register', names: list, total: totalCents / 100 }, confirm, () => {
      setConfirm(null)
      setChecked(null)
      setText('')
    })
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Bulk registration</CardTitle>
        <CardDescription>
          Paste up to 1,000 domain names, one per line, or upload a .txt or .csv file. Check them all at once, choose
          the ones to register and confirm the total.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {job.jobId !== null ? (
          <BulkJobView id={job.jobId} onClose={job.close} />
        ) : (
          <>
            <Field label="Domain names" error={error} hint={`${names.length} ${names.length === 1 ? 'name' : 'names'}`}>
              {(ids) => (
                <Textarea
                  {...ids}
                  rows={6}
                  value={text}
                  placeholder={'example.inf.nz\nexample.biz.ee'}
                  onChange={(e) => {
                    setText(e.target.value)
                    setChecked(null)
                  }}
                />
              )}
            </Field>
            <div className="flex flex-wrap gap-2">
              <Button onClick={onCheck} disabled={checking}>
                {checking ? 'Checking...' : 'Check availability'}
              </Button>
              <Button variant="outline" onClick={() => fileRef.current?.click()}>
                <Upload className="h-4 w-4" aria-hidden />
                Upload file
              </Button>
              <input
                ref={fileRef}
                type="file"
                accept=".txt,.csv,text/plain,text/csv"
                className="hidden"
                aria-label="File of names (.txt or .csv)"
                onChange={onFile}
              />
            </div>
          </>
        )}
        {checked && job.jobId === null && (
          <div className="space-y-3">
            <p className="text-sm text-slate-600" role="status">
              {checked.available} of {results.length} available
            </p>
            <div className="max-h-[28rem] overflow-auto rounded-lg border border-slate-200">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Availability</caption>
                <thead className="sticky top-0 bg-slate-50 text-xs uppercase text-slate-500">
                  <tr>
                    <th scope="col" className="w-10 px-3 py-2">
                      <input
                        type="checkbox"
                        aria-label="Select all available"
                        checked={allChosen}
                        disabled={available.length === 0}
                        onChange={() => setChosen(allChosen ? new Set() : new Set(available.map((r) => r.domain)))}
                      />
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Domain
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Status
                    </th>
                    <th scope="col" className="py-2 pr-3 text-right">
                      Price
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {results.map((r) => (
                    <tr key={r.domain} className="align-top">
                      <td className="px-3 py-2">
                        {r.available && (
                          <input
                            type="checkbox"
                            aria-label={`Register ${r.domain}`}
                            checked={chosen.has(r.domain)}
                            onChange={() => toggle(r.domain)}
                          />
                        )}
                      </td>
                      <DomainHeader domain={r.domain}>
                        {r.isPremium && <span className="block text-xs text-amber-700">Premium</span>}
                      </DomainHeader>
                      <td className="py-2 pr-3">
                        <Availability result={r} />
                      </td>
                      <td className="py-2 pr-3 text-right tabular-nums">
                        {!r.error && (
                          <>
                            {formatUsd(r.price)}
                            <span className="hidden text-slate-500 sm:inline">/yr</span>
                          </>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-slate-700">
                Total of the chosen: <span className="font-semibold">{formatUsd(totalCents / 100)}</span>
              </p>
              <Button disabled={count === 0} onClick={() => setConfirm(newRequestKey())}>
                Register {count} {count === 1 ? 'domain' : 'domains'} for {formatUsd(totalCents / 100)}
              </Button>
            </div>
          </div>
        )}
        <ConfirmDialog
          open={confirm !== null}
          variant="primary"
          title="Confirm registration"
          description={`Register ${count} ${count === 1 ? 'domain' : 'domains'} for one year for a total of ${formatUsd(
            totalCents / 100,
          )}, paid from your wallet. A name that cannot be registered is refused and costs nothing.`}
          action={`Pay ${formatUsd(totalCents / 100)}`}
          pending={job.pending}
          onCancel={() => setConfirm(null)}
          onConfirm={onRegister}
        />
      </CardContent>
    </Card>
  )
}

/** Bulk renewal and auto-renewal of the account's own domains, picked from the list or pasted. */
function BulkRenew() {
  const domains = useQuery(ownDomainsQueryOptions())
  const [chosen, setChosen] = useState<Set<string>>(new Set())
  const [pasted, setPasted] = useState('')
  const [pasteError, setPasteError] = useState<string | undefined>()
  const [confirm, setConfirm] = useState<string | null>(null)
  const job = useJob()
  const list = domains.data ?? []
  const full = (d: (typeof list)[number]) => `${d.name}${d.extension}`
  const picked = list.filter((d) => chosen.has(full(d)))
  const totalCents = picked.reduce((sum, d) => sum + cents(d.renewalPrice), 0)
  const allChosen = list.length > 0 && picked.length === list.length

  const toggle = (name: string) =>
    setChosen((prev) => {
      const next = new Set(prev)
      if (next.has(name)) next.delete(name)
      else next.add(name)
      return next
    })
  const done = () => {
    setConfirm(null)
    setChosen(new Set())
  }
  // Pasted names choose the listed domains they name, so the total stays the list's prices.
  const choosePasted = () => {
    const own = new Set(list.map(full))
    const names = parseNames(pasted).map((n) => n.toLowerCase())
    const unknown = names.filter((n) => !own.has(n))
    setChosen((prev) => new Set([...prev, ...names.filter((n) => own.has(n))]))
    setPasteError(unknown.length > 0 ? `Not among your domains: ${unknown.join(', ')}` : undefined)
    if (unknown.length === 0) setPasted('')
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Bulk renewal and auto-renew</CardTitle>
        <CardDescription>
          Choose your domains, then renew them for one period each or turn auto-renew on or off.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {job.jobId !== null ? (
          <BulkJobView id={job.jobId} onClose={job.close} />
        ) : domains.isPending ? (
          <p className="text-sm text-slate-500">Loading your domains...</p>
        ) : domains.isError ? (
          <p role="alert" className="text-sm text-red-700">
            Your domains could not be loaded. {bulkErrorText(domains.error)}
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-slate-600">No domains found</p>
        ) : (
          <>
            <div className="max-h-80 overflow-auto rounded-lg border border-slate-200">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Your domains</caption>
                <thead className="sticky top-0 bg-slate-50 text-xs uppercase text-slate-500">
                  <tr>
                    <th scope="col" className="w-10 px-3 py-2">
                      <input
                        type="checkbox"
                        aria-label="Select all domains"
                        checked={allChosen}
                        onChange={() => setChosen(allChosen ? new Set() : new Set(list.map(full)))}
                      />
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Domain
                    </th>
                    <th scope="col" className="hidden py-2 pr-3 sm:table-cell">
                      Expires
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Auto-Renew
                    </th>
                    <th scope="col" className="py-2 pr-3 text-right">
                      Renewal
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {list.map((d) => (
                    <tr key={d.id}>
                      <td className="px-3 py-2">
                        <input
                          type="checkbox"
                          aria-label={`Choose ${full(d)}`}
                          checked={chosen.has(full(d))}
                          onChange={() => toggle(full(d))}
                        />
                      </td>
                      <DomainHeader domain={full(d)} />
                      <td className="hidden py-2 pr-3 text-slate-600 sm:table-cell">{formatDate(d.expiresAt)}</td>
                      <td className="py-2 pr-3">{d.autoRenew ? 'Enabled' : 'Disabled'}</td>
                      <td className="py-2 pr-3 text-right tabular-nums">{formatUsd(d.renewalPrice)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Field
              label="Paste names"
              hint="Your domains, one per line: they are chosen in the list"
              error={pasteError}
            >
              {(ids) => (
                <Textarea
                  {...ids}
                  rows={3}
                  value={pasted}
                  placeholder={'example.inf.nz\nexample.biz.ee'}
                  onChange={(e) => setPasted(e.target.value)}
                />
              )}
            </Field>
            <Button variant="outline" size="sm" disabled={parseNames(pasted).length === 0} onClick={choosePasted}>
              Choose pasted names
            </Button>
            <div className="flex flex-wrap gap-2">
              <Button disabled={picked.length === 0} onClick={() => setConfirm(newRequestKey())}>
                Renew {picked.length} for {formatUsd(totalCents / 100)}
              </Button>
              {[true, false].map((on) => (
                <Button
                  key={String(on)}
                  variant="outline"
                  disabled={picked.length === 0 || job.pending}
                  onClick={() =>
                    job.run({ kind: 'auto_renew', names: picked.map(full), autoRenew: on }, newRequestKey(), done)
                  }
                >
                  Turn auto-renew {on ? 'on' : 'off'}
                </Button>
              ))}
            </div>
          </>
        )}
        <ConfirmDialog
          open={confirm !== null}
          variant="primary"
          title="Confirm renewal"
          description={`Renew ${picked.length} ${picked.length === 1 ? 'domain' : 'domains'} for one period each for a total of ${formatUsd(
            totalCents / 100,
          )}, paid from your wallet.`}
          action={`Pay ${formatUsd(totalCents / 100)}`}
          pending={job.pending}
          onCancel={() => setConfirm(null)}
          onConfirm={() =>
            confirm && job.run({ kind: 'renew', names: picked.map(full), total: totalCents / 100 }, confirm, done)
          }
        />
      </CardContent>
    </Card>
  )
}

/** DNS templates: saved record sets, made or edited here and applied to pasted domains. */
function DnsTemplates() {
  const templates = useQuery(templatesQueryOptions())
  const create = useCreateTemplate()
  const update = useUpdateTemplate()
  const remove = useDeleteTemplate()
  const job = useJob()
  const [editing, setEditing] = useState<DNSTemplate | null>(null)
  const [deleting, setDeleting] = useState<DNSTemplate | null>(null)
  const [name, setName] = useState('')
  const [records, setRecords] = useState('')
  const [formError, setFormError] = useState<string | undefined>()
  const [templateId, setTemplateId] = useState('')
  const [targets, setTargets] = useState('')
  const list = templates.data ?? []

  const reset = () => {
    setEditing(null)
    setName('')
    setRecords('')
    setFormError(undefined)
  }
  const onEdit = (t: DNSTemplate) => {
    setEditing(t)
    setName(t.name)
    setRecords(recordLines(t.records ?? []))
    setFormError(undefined)
  }
  const onSave = () => {
    setFormError(undefined)
    const parsed = parseRecordLines(records)
    if ('error' in parsed) return setFormError(parsed.error)
    const handlers = {
      onSuccess: (t: DNSTemplate) => {
        reset()
        setTemplateId(String(t.id))
        toast({ title: 'Template saved', description: `${t.name} can now be applied to your domains.` })
      },
      onError: (error: Error) => setFormError(bulkErrorText(error)),
    }
    if (editing) {
      const request = { name, records: keepTTLs(parsed.sets, editing.records ?? []) }
      update.mutate({ id: editing.id, request }, handlers)
    } else {
      create.mutate({ name, records: parsed.sets }, handlers)
    }
  }
  const onDelete = () => {
    if (!deleting) return
    remove.mutate(deleting.id, {
      onSuccess: () => {
        if (editing?.id === deleting.id) reset()
        if (templateId === String(deleting.id)) setTemplateId('')
        setDeleting(null)
      },
      onError: (error) => toast({ variant: 'destructive', title: 'Error', description: bulkErrorText(error) }),
    })
  }
  const onApply = () => {
    const names = parseNames(targets)
    if (!templateId || names.length === 0) return
    job.run({ kind: 'dns_template', names, templateId: Number(templateId) }, newRequestKey(), () => setTargets(''))
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>DNS templates</CardTitle>
        <CardDescription>Save a set of DNS records once and apply it to many domains.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {templates.isError ? (
          <p role="alert" className="text-sm text-red-700">
            Your templates could not be loaded. {bulkErrorText(templates.error)}
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-slate-600">No templates yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label="DNS templates">
            {list.map((t) => (
              <li key={t.id} className="flex items-start justify-between gap-3 px-3 py-2 text-sm">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{t.name}</p>
                  <p className="text-slate-600 [overflow-wrap:anywhere]">
                    {(t.records ?? []).map((r) => `${r.name} ${r.type} ${(r.values ?? []).join(', ')}`).join(' · ')}
                  </p>
                </div>
                <div className="flex shrink-0 gap-1">
                  <Button variant="ghost" size="icon" aria-label={`Edit template ${t.name}`} onClick={() => onEdit(t)}>
                    <Pencil className="h-4 w-4" aria-hidden />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={`Delete template ${t.name}`}
                    className="text-red-600 hover:bg-red-50"
                    onClick={() => setDeleting(t)}
                  >
                    <Trash2 className="h-4 w-4" aria-hidden />
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
        <div className="grid gap-3 md:grid-cols-2">
          <div className="space-y-3">
            <h3 className="text-sm font-semibold text-slate-900">
              {editing ? `Edit ${editing.name}` : 'New template'}
            </h3>
            <Field label="Template name">
              {(ids) => (
                <Input {...ids} value={name} onChange={(e) => setName(e.target.value)} placeholder="Web hosting" />
              )}
            </Field>
            <Field
              label="Records"
              error={formError}
              hint='One per line: name type value, such as "www A 192.0.2.10" or "@ MX 10 mail.example.com"'
            >
              {(ids) => (
                <Textarea
                  {...ids}
                  rows={4}
                  value={records}
                  onChange={(e) => setRecords(e.target.value)}
                  placeholder={'@ A 192.0.2.10\nwww CNAME example.com.'}
                />
              )}
            </Field>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" disabled={create.isPending || update.isPending} onClick={onSave}>
                {editing ? 'Save changes' : 'Save template'}
              </Button>
              {editing && (
                <Button variant="ghost" onClick={reset}>
                  Cancel editing
                </Button>
              )}
            </div>
          </div>
          <div className="space-y-3">
            <h3 className="text-sm font-semibold text-slate-900">Apply a template</h3>
            {job.jobId !== null ? (
              <BulkJobView id={job.jobId} onClose={job.close} />
            ) : (
              <>
                <Field label="Template">
                  {(ids) => (
                    <Select {...ids} value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
                      <option value="">Choose a template</option>
                      {list.map((t) => (
                        <option key={t.id} value={t.id}>
                          {t.name}
                        </option>
                      ))}
                    </Select>
                  )}
                </Field>
                <Field label="Your domains" hint="One per line">
                  {(ids) => <Textarea {...ids} rows={4} value={targets} onChange={(e) => setTargets(e.target.value)} />}
                </Field>
                <Button disabled={!templateId || parseNames(targets).length === 0 || job.pending} onClick={onApply}>
                  Apply template
                </Button>
              </>
            )}
          </div>
        </div>
        <ConfirmDialog
          open={deleting !== null}
          title="Delete template"
          description={`Delete the template ${deleting?.name ?? ''}? Domains it was applied to keep their records.`}
          pending={remove.isPending}
          onCancel={() => setDeleting(null)}
          onConfirm={onDelete}
        />
      </CardContent>
    </Card>
  )
}

/** The registrar dashboard's Bulk Operations tab. */
export function BulkPanel() {
  return (
    <div className="space-y-6">
      <BulkRegister />
      <BulkRenew />
      <DnsTemplates />
    </div>
  )
}
