import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Pencil, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Field, Input } from '@/components/ui/form'
import { Badge } from '@/components/ui/badge'
import { useRules } from '@/lib/rules'
import { overlaps, sortRules, type LengthPriceRule } from '../api/extensions'

interface Draft {
  minLength: string
  maxLength: string
  price: string
  registrarPrice: string
  isPromotion: boolean
  promotionLabel: string
  promotionStartDate: string
  promotionEndDate: string
}

export const OVERLAP_MESSAGE =
  'There is an overlap with an existing rule. Each domain length must be covered by only one rule.'

/** A new rule's price defaults to twice the base price. */
function emptyDraft(basePrice: number): Draft {
  const price = Number.isFinite(basePrice) && basePrice > 0 ? String(basePrice * 2) : ''
  return {
    minLength: '',
    maxLength: '',
    price,
    registrarPrice: '',
    isPromotion: false,
    promotionLabel: '',
    promotionStartDate: '',
    promotionEndDate: '',
  }
}

function draftOf(rule: LengthPriceRule): Draft {
  return {
    minLength: String(rule.minLength),
    maxLength: String(rule.maxLength),
    price: String(rule.price),
    registrarPrice: rule.registrarPrice != null ? String(rule.registrarPrice) : '',
    isPromotion: Boolean(rule.isPromotion),
    promotionLabel: rule.promotionLabel ?? '',
    promotionStartDate: rule.promotionStartDate?.slice(0, 10) ?? '',
    promotionEndDate: rule.promotionEndDate?.slice(0, 10) ?? '',
  }
}

/**
 * The server's bounds of a rule (GET /api/rules): lengths are those a label
 * may have, and a registrar price has the floor of a base price.
 */
interface RuleBounds {
  minLength: number
  maxLength: number
  minRegistrarPrice: number
}

/**
 * The draft as a rule, or null while it breaks a rule of spec section 5 (the
 * Add button is disabled then). Until the server's bounds are known only the
 * shape is checked; the server checks the rules again when they are saved.
 */
function ruleOf(draft: Draft, bounds: RuleBounds | undefined): LengthPriceRule | null {
  const min = Number(draft.minLength)
  const max = Number(draft.maxLength)
  const price = Number(draft.price)
  const lengthOk = (n: number) =>
    Number.isInteger(n) && n > 0 && (!bounds || (n >= bounds.minLength && n <= bounds.maxLength))
  if (draft.minLength === '' || draft.maxLength === '' || draft.price === '') return null
  if (!lengthOk(min) || !lengthOk(max) || min > max || !(price > 0)) return null
  // Absent, not null: the server's rule has no null registrar price.
  let registrarPrice: number | undefined
  if (draft.registrarPrice !== '') {
    registrarPrice = Number(draft.registrarPrice)
    if (!(registrarPrice > 0) || (bounds && registrarPrice < bounds.minRegistrarPrice)) return null
  }
  return {
    minLength: min,
    maxLength: max,
    price,
    registrarPrice,
    isPromotion: draft.isPromotion,
    promotionLabel: draft.isPromotion ? draft.promotionLabel.trim() : '',
    promotionStartDate: draft.isPromotion && draft.promotionStartDate ? draft.promotionStartDate : null,
    promotionEndDate: draft.isPromotion && draft.promotionEndDate ? draft.promotionEndDate : null,
  }
}

const money = (n: number) => `$${n.toFixed(2)}`

/** The length-based pricing rules of the simple extension form. */
export function LengthRulesEditor({
  rules,
  onChange,
  basePrice,
}: {
  rules: LengthPriceRule[]
  onChange: (rules: LengthPriceRule[]) => void
  basePrice: number
}) {
  // The rule being written: its own form inside the extension's (a rule is added to the list, not sent).
  const draftForm = useForm<Draft>({ defaultValues: emptyDraft(basePrice) })
  const draft = draftForm.watch()
  const setDraft = (next: Draft) => draftForm.reset(next)
  const [editing, setEditing] = useState<number | null>(null)
  const [overlap, setOverlap] = useState(false)
  const serverRules = useRules()
  const bounds: RuleBounds | undefined = serverRules && {
    minLength: serverRules.domainName.minLength,
    maxLength: serverRules.domainName.maxLength,
    minRegistrarPrice: serverRules.extensions.minRegistrarPrice,
  }
  const rule = ruleOf(draft, bounds)
  // Any edit of the draft takes back an overlap message about the previous one.
  const field = (name: keyof Draft) => draftForm.register(name, { onChange: () => setOverlap(false) })

  function preset(min: number, max: number) {
    setOverlap(false)
    draftForm.setValue('minLength', String(min))
    draftForm.setValue('maxLength', String(max))
    draftForm.setValue('price', emptyDraft(basePrice).price)
  }

  function add() {
    if (!rule) return
    if (editing !== null) {
      // Editing a rule skips the overlap check (spec section 5).
      onChange(sortRules(rules.map((r, i) => (i === editing ? rule : r))))
    } else {
      if (overlaps(rule, rules)) {
        setOverlap(true)
        return
      }
      onChange(sortRules([...rules, rule]))
    }
    setEditing(null)
    setDraft(emptyDraft(basePrice))
  }

  function edit(index: number) {
    setOverlap(false)
    setEditing(index)
    setDraft(draftOf(rules[index]))
  }

  function remove(index: number) {
    if (editing === index) {
      setEditing(null)
      setDraft(emptyDraft(basePrice))
    }
    onChange(rules.filter((_, i) => i !== index))
  }

  return (
    <fieldset className="min-w-0 space-y-4 rounded-xl border border-slate-200 p-3 sm:p-4">
      <legend className="px-1 text-sm font-semibold text-slate-900">Length-based pricing</legend>
      {rules.length === 0 ? (
        <p className="text-sm text-slate-500">No rules: the base price applies to every length.</p>
      ) : (
        <ul aria-label="Length pricing rules" className="divide-y divide-slate-100 rounded-lg border border-slate-200">
          {rules.map((r, index) => (
            <li key={`${r.minLength}-${r.maxLength}`} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
              <span className="font-medium text-slate-900">
                {r.minLength}–{r.maxLength} characters
              </span>
              <span className="text-slate-700">{money(r.price)}</span>
              {r.registrarPrice != null && <span className="text-slate-500">registrar {money(r.registrarPrice)}</span>}
              {r.isPromotion && <Badge tone="premium">{r.promotionLabel || 'Promotion'}</Badge>}
              <span className="ml-auto flex gap-1">
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Edit rule ${r.minLength}-${r.maxLength}`}
                  onClick={() => edit(index)}
                >
                  <Pencil className="h-4 w-4" aria-hidden />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove rule ${r.minLength}-${r.maxLength}`}
                  onClick={() => remove(index)}
                >
                  <Trash2 className="h-4 w-4" aria-hidden />
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}

      {/* Spec presets: short names up to 3 characters, and the rest up to the longest label. */}
      {bounds && (
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm text-slate-600">Presets:</span>
          <Button variant="outline" size="sm" onClick={() => preset(bounds.minLength, 3)}>
            {bounds.minLength}-3 characters
          </Button>
          <Button variant="outline" size="sm" onClick={() => preset(4, bounds.maxLength)}>
            4-{bounds.maxLength} characters
          </Button>
        </div>
      )}

      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Field label="Min length">
          {(ids) => (
            <Input {...ids} type="number" min={bounds?.minLength} max={bounds?.maxLength} {...field('minLength')} />
          )}
        </Field>
        <Field label="Max length">
          {(ids) => (
            <Input {...ids} type="number" min={bounds?.minLength} max={bounds?.maxLength} {...field('maxLength')} />
          )}
        </Field>
        <Field label="Rule price" className="col-span-2 sm:col-span-1">
          {(ids) => (
            <Input {...ids} type="number" min={0.01} step={0.01} {...field('price')} />
          )}
        </Field>
        <Field label="Registrar price" className="col-span-2 sm:col-span-1">
          {(ids) => (
            <Input
              {...ids}
              type="number"
              min={bounds?.minRegistrarPrice}
              step={0.01}
              placeholder="Optional"
              {...field('registrarPrice')}
            />
          )}
        </Field>
      </div>

      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-slate-300 text-brand-600"
          {...field('isPromotion')}
        />
        Promotional rule
      </label>
      {draft.isPromotion && (
        <div className="grid gap-3 sm:grid-cols-3">
          <Field label="Promotion label">
            {(ids) => <Input {...ids} {...field('promotionLabel')} />}
          </Field>
          <Field label="Promotion start date">
            {(ids) => (
              <Input {...ids} type="date" {...field('promotionStartDate')} />
            )}
          </Field>
          <Field label="Promotion end date">
            {(ids) => (
              <Input {...ids} type="date" {...field('promotionEndDate')} />
            )}
          </Field>
        </div>
      )}

      {overlap && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {OVERLAP_MESSAGE}
        </p>
      )}

      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" disabled={!rule} onClick={add}>
          {editing !== null ? 'Update Rule' : 'Add Rule'}
        </Button>
        {editing !== null && (
          <Button
            variant="ghost"
            onClick={() => {
              setEditing(null)
              setDraft(emptyDraft(basePrice))
            }}
          >
            Cancel edit
          </Button>
        )}
      </div>
    </fieldset>
  )
}
