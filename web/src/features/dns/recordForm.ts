import type { Rules } from '@/lib/rules'
import type { DnsRecord, RecordInput, RecordType } from './api/dns'

/** The spec's default TTL; the bounds are the server's (GET /api/rules). */
export const DEFAULT_TTL = 3600

export type TtlBounds = Rules['dns']

/** What the content field of each type expects: its placeholder and a one-line hint. */
export const contentGuide: Record<RecordType, { placeholder: string; hint: string }> = {
  A: { placeholder: '192.0.2.1', hint: 'An IPv4 address.' },
  AAAA: { placeholder: '2001:db8::1', hint: 'An IPv6 address.' },
  CNAME: {
    placeholder: 'target.example.com',
    hint: 'The host name this name is an alias of. A CNAME cannot be at @.',
  },
  MX: { placeholder: 'mail.example.com', hint: 'The mail server. Lower priorities are tried first.' },
  TXT: {
    placeholder: 'v=spf1 include:_spf.example.com ~all',
    hint: 'Free text: SPF, DKIM or DMARC policies, site verification tokens.',
  },
  NS: { placeholder: 'ns1.example.net', hint: 'Delegates this name (a subdomain, not @) to another name server.' },
  SRV: {
    placeholder: '10 5 5060 sip.example.com',
    hint: 'Priority, weight, port and target, e.g. 10 5 5060 sip.example.com; name it like _sip._tcp.',
  },
  CAA: {
    placeholder: '0 issue "letsencrypt.org"',
    hint: 'Flags, tag and value, such as 0 issue "letsencrypt.org": which certificate authorities may issue.',
  },
}

/** The dialog's fields as typed (numbers as text until submitted). */
export interface RecordFormValues {
  type: RecordType
  name: string
  content: string
  ttl: string
  priority: string
}

export const emptyRecordForm: RecordFormValues = {
  type: 'A',
  name: '',
  content: '',
  ttl: String(DEFAULT_TTL),
  priority: '10',
}

/** Whether the type has a priority the table shows before the content. */
export function hasPriority(type: RecordType): boolean {
  return type === 'MX' || type === 'SRV'
}

/** The content as the table shows it: MX and SRV with their priority first ("10 mail.example.com"). */
export function displayContent(record: Pick<DnsRecord, 'type' | 'content' | 'priority'>): string {
  return hasPriority(record.type) && record.priority !== null ? `${record.priority} ${record.content}` : record.content
}

/**
 * A record as the dialog edits it. The dialog has a priority field only for
 * MX (spec), so an SRV record's priority goes back in front of its content.
 */
export function recordToForm(record: DnsRecord): RecordFormValues {
  return {
    type: record.type,
    name: record.name,
    content: record.type === 'SRV' ? displayContent(record) : record.content,
    ttl: String(record.ttl),
    priority: record.type === 'MX' && record.priority !== null ? String(record.priority) : emptyRecordForm.priority,
  }
}

const wholeNumber = /^\d+$/

export function nameError(value: string): string | undefined {
  return value.trim() === '' ? 'Record name is required' : undefined
}

export function contentError(value: string): string | undefined {
  return value.trim() === '' ? 'Record content is required' : undefined
}

/** The TTL's check, with the server's messages; the bounds are checked once they are known. */
export function ttlError(value: string, bounds: TtlBounds | undefined): string | undefined {
  const text = value.trim()
  if (text === '') return 'TTL is required'
  if (!wholeNumber.test(text)) return 'TTL must be a whole number of seconds'
  const ttl = Number.parseInt(text, 10)
  if (bounds && ttl < bounds.minTtl) return `TTL must be at least ${bounds.minTtl} seconds`
  if (bounds && ttl > bounds.maxTtl) return `TTL must be at most ${bounds.maxTtl} seconds (a week)`
  return undefined
}

export function priorityError(value: string, type: RecordType): string | undefined {
  if (type !== 'MX') return undefined
  const text = value.trim()
  if (text === '') return 'Priority is required for MX records'
  if (!wholeNumber.test(text) || Number.parseInt(text, 10) > 65_535) return 'Priority must be a number from 0 to 65535'
  return undefined
}

/** The request body of valid form values: trimmed, TTL as an integer, priority only for MX. */
export function formToInput(values: RecordFormValues): RecordInput {
  const input: RecordInput = {
    type: values.type,
    name: values.name.trim(),
    content: values.content.trim(),
    ttl: Number.parseInt(values.ttl.trim(), 10),
  }
  if (values.type === 'MX') input.priority = Number.parseInt(values.priority.trim(), 10)
  return input
}
