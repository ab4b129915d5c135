import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  AlertCircle,
  ArrowLeft,
  ChevronLeft,
  ChevronRight,
  Inbox,
  LoaderCircle,
  Mail,
  Send,
  Trash2,
} from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { Field, Select, Textarea } from '@/components/ui/form'
import { toast } from '@/components/toast/toastStore'
import { cx } from '@/lib/classNames'
import { serverMessage } from '@/lib/api'
import {
  CONTACT_URL,
  contactMessageQueryOptions,
  contactMessagesQueryOptions,
  deleteContactMessage,
  INBOX_PAGE_SIZE,
  INTEREST_LABELS,
  replyToContactMessage,
  type ContactMessage,
  type ContactStatus,
} from '../api/contact'

const statusBadge: Record<ContactStatus, { label: string; tone: 'brand' | 'neutral' | 'success' }> = {
  new: { label: 'New', tone: 'brand' },
  read: { label: 'Read', tone: 'neutral' },
  answered: { label: 'Answered', tone: 'success' },
}

const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' })

/** What a message is about: a request's interest, a message's subject. */
function topicOf(m: ContactMessage): string {
  if (m.kind === 'request') return m.interest ? INTEREST_LABELS[m.interest] : ''
  return m.subject || '(no subject)'
}

function StatusBadge({ status }: { status: ContactStatus }) {
  return <Badge tone={statusBadge[status].tone}>{statusBadge[status].label}</Badge>
}

/**
 * The Inbox tab: what visitors sent through the contact form, newest first.
 * Opening one marks it read; a reply is mailed to the sender and marks it
 * answered. On a phone the list and the open message take turns.
 */
export function InboxPanel() {
  const [status, setStatus] = useState<ContactStatus | ''>('')
  const [page, setPage] = useState(1)
  const [openId, setOpenId] = useState<number | null>(null)
  const query = useQuery(contactMessagesQueryOptions({ status, page }))
  const messages = query.data?.messages ?? []
  const pages = query.data ? Math.max(1, Math.ceil(query.data.total / INBOX_PAGE_SIZE)) : 1
  const unread = query.data?.unread ?? 0

  return (
    <Card>
      <CardHeader className="flex flex-col gap-3 space-y-0 sm:flex-row sm:items-start sm:justify-between">
        <div className="space-y-1">
          <CardTitle className="flex items-center gap-2">
            Inbox
            {unread > 0 && <Badge tone="brand">{unread} unread</Badge>}
          </CardTitle>
          <CardDescription>
            Contact requests from the website. Replies are mailed to the sender from the site&apos;s address.
          </CardDescription>
        </div>
        <Select
          aria-label="Show"
          className="sm:w-44"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as ContactStatus | '')
            setPage(1)
          }}
        >
          <option value="">All messages</option>
          <option value="new">New</option>
          <option value="read">Read</option>
          <option value="answered">Answered</option>
        </Select>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div className="flex items-center justify-center gap-3 py-12 text-slate-500" role="status">
            <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden /> Loading messages...
          </div>
        ) : query.isError ? (
          <div role="alert" className="flex flex-col items-center gap-2 py-12 text-center">
            <AlertCircle className="h-8 w-8 text-red-500" aria-hidden />
            <p className="font-medium text-slate-900">Could not load the inbox</p>
            <p className="text-sm text-slate-500">{serverMessage(query.error) || 'An unexpected error occurred'}</p>
          </div>
        ) : messages.length === 0 && openId === null ? (
          <div className="flex flex-col items-center gap-2 py-12 text-center">
            <Inbox className="h-8 w-8 text-slate-300" aria-hidden />
            <p className="font-medium text-slate-900">{status ? 'No messages with this status' : 'No messages yet'}</p>
            <p className="text-sm text-slate-500">What visitors send through the contact form arrives here.</p>
          </div>
        ) : (
          <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
            <div className={cx(openId !== null && 'hidden lg:block')}>
              <ul aria-label="Messages" className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
                {messages.map((m) => (
                  <li key={m.id}>
                    <button
                      type="button"
                      onClick={() => setOpenId(m.id)}
                      aria-current={openId === m.id || undefined}
                      className={cx(
                        'flex w-full flex-col gap-1 px-4 py-3 text-left hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-500',
                        openId === m.id && 'bg-brand-50 hover:bg-brand-50',
                      )}
                    >
                      <span className="flex items-center justify-between gap-3">
                        <span
                          className={cx(
                            'truncate text-slate-900',
                            m.status === 'new' ? 'font-semibold' : 'font-medium',
                          )}
                        >
                          {m.name}
                        </span>
                        <StatusBadge status={m.status} />
                      </span>
                      <span className="truncate text-sm text-slate-600">{m.email}</span>
                      <span className="flex items-center justify-between gap-3 text-xs text-slate-500">
                        <span className="truncate">{topicOf(m)}</span>
                        <time dateTime={m.createdAt} className="shrink-0">
                          {day.format(new Date(m.createdAt))}
                        </time>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
              <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
                <span>
                  {query.data.total} {query.data.total === 1 ? 'message' : 'messages'} · page {page} of {pages}
                </span>
                <div className="flex gap-2">
                  <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                    <ChevronLeft className="h-4 w-4" aria-hidden /> Previous
                  </Button>
                  <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                    Next <ChevronRight className="h-4 w-4" aria-hidden />
                  </Button>
                </div>
              </div>
            </div>
            <div className={cx(openId === null && 'hidden lg:block')}>
              {openId === null ? (
                <div className="flex h-full min-h-40 flex-col items-center justify-center gap-2 rounded-xl border border-dashed border-slate-200 p-6 text-center text-sm text-slate-500">
                  <Mail className="h-6 w-6 text-slate-300" aria-hidden />
                  Select a message to read and answer it.
                </div>
              ) : (
                <MessageDetail key={openId} id={openId} onClose={() => setOpenId(null)} />
              )}
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  )
}

function MessageDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const queryClient = useQueryClient()
  const query = useQuery(contactMessageQueryOptions(id))
  const [confirming, setConfirming] = useState(false)
  const form = useForm<{ message: string }>({ defaultValues: { message: '' } })
  const refreshList = () => queryClient.invalidateQueries({ queryKey: [CONTACT_URL] })

  // Opening marked it read: the list's badge and unread count follow.
  const opened = query.isSuccess
  useEffect(() => {
    if (opened) void queryClient.invalidateQueries({ queryKey: [CONTACT_URL] })
  }, [opened, queryClient])

  const reply = useMutation({
    mutationFn: (message: string) => replyToContactMessage(id, message),
    onSuccess: (answered) => {
      queryClient.setQueryData(contactMessageQueryOptions(id).queryKey, answered)
      toast({ title: 'Reply sent', description: `Your answer is on its way to ${answered.email}.` })
      form.reset()
    },
    onError: (failure) => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: serverMessage(failure) || 'Failed to send the reply',
      })
    },
    onSettled: () => void refreshList(),
  })
  const remove = useMutation({
    mutationFn: () => deleteContactMessage(id),
    onSuccess: () => {
      toast({ title: 'Message deleted' })
      setConfirming(false)
      onClose()
    },
    onError: (failure) => {
      setConfirming(false)
      toast({ variant: 'destructive', title: 'Error', description: serverMessage(failure) || 'Failed to delete' })
    },
    onSettled: () => void refreshList(),
  })

  if (query.isPending) {
    return (
      <div className="flex items-center gap-3 py-12 text-slate-500" role="status">
        <LoaderCircle className="h-5 w-5 animate-spin" aria-hidden /> Loading message...
      </div>
    )
  }
  if (query.isError) {
    return (
      <div role="alert" className="space-y-3 py-6">
        <p className="text-sm text-red-600">{serverMessage(query.error) || 'Could not load the message'}</p>
        <Button variant="outline" size="sm" onClick={onClose}>
          <ArrowLeft className="h-4 w-4" aria-hidden /> Back to inbox
        </Button>
      </div>
    )
  }
  const m = query.data
  const submit = form.handleSubmit(({ message }) => reply.mutate(message))

  return (
    <article aria-label={`Message from ${m.name}`} className="space-y-5 rounded-xl p-4 ring-1 ring-slate-200 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button variant="ghost" size="sm" className="-ml-2 lg:hidden" onClick={onClose}>
          <ArrowLeft className="h-4 w-4" aria-hidden /> Back to inbox
        </Button>
        <span className="text-xs font-medium uppercase tracking-wide text-slate-500">
          {m.kind === 'request' ? 'Contact request' : 'Contact message'}
        </span>
        <StatusBadge status={m.status} />
      </div>
      <div className="min-w-0 space-y-1">
        <h3 className="break-words text-lg font-semibold text-slate-900">{m.name}</h3>
        <a href={`mailto:${m.email}`} className="break-all text-sm text-brand-700 hover:underline">
          {m.email}
        </a>
      </div>
      <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
        <dt className="text-slate-500">{m.kind === 'request' ? 'Interested in' : 'Subject'}</dt>
        <dd className="break-words text-slate-900">{topicOf(m)}</dd>
        <dt className="text-slate-500">Received</dt>
        <dd className="text-slate-900">
          <time dateTime={m.createdAt}>{when.format(new Date(m.createdAt))}</time>
        </dd>
      </dl>
      {m.message ? (
        <p className="whitespace-pre-wrap break-words rounded-lg bg-slate-50 p-4 text-sm text-slate-800">{m.message}</p>
      ) : (
        <p className="text-sm italic text-slate-500">No message: the sender filled in the form&apos;s fields only.</p>
      )}
      {m.status === 'answered' ? (
        <section aria-label="Reply" className="space-y-2 border-t border-slate-100 pt-4">
          <p className="text-sm text-slate-600">
            Answered{m.answeredBy ? ` by ${m.answeredBy}` : ''}
            {m.answeredAt ? ` on ${when.format(new Date(m.answeredAt))}` : ''}
          </p>
          <p className="whitespace-pre-wrap break-words rounded-lg bg-emerald-50 p-4 text-sm text-slate-800">
            {m.reply}
          </p>
        </section>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Reply" className="space-y-3 border-t border-slate-100 pt-4">
          <Field label={`Reply to ${m.email}`} error={form.formState.errors.message?.message}>
            {(ids) => (
              <Textarea
                {...ids}
                rows={5}
                {...form.register('message', {
                  validate: (text) => text.trim() !== '' || 'Write a reply first',
                })}
              />
            )}
          </Field>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
            <Button type="button" variant="outline" onClick={() => setConfirming(true)}>
              <Trash2 className="h-4 w-4" aria-hidden /> Delete
            </Button>
            <Button type="submit" disabled={reply.isPending}>
              <Send className="h-4 w-4" aria-hidden /> {reply.isPending ? 'Sending...' : 'Send reply'}
            </Button>
          </div>
        </form>
      )}
      {m.status === 'answered' && (
        <div className="flex justify-end">
          <Button type="button" variant="outline" onClick={() => setConfirming(true)}>
            <Trash2 className="h-4 w-4" aria-hidden /> Delete
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title="Delete this message?"
        description={`The message from ${m.name} leaves the inbox for good.`}
        pending={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => remove.mutate()}
      />
    </article>
  )
}
