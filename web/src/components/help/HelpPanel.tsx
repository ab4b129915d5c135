import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { useForm } from 'react-hook-form'
import { Loader2, Send, Sparkles, X } from 'lucide-react'
import { useHelp } from './HelpProvider'
import { helpAssistant, type DetailedHelp } from './helpAssistant'
import { basicHelpText } from './topics'

type Detail = { state: 'idle' } | { state: 'loading' } | { state: 'loaded'; help: DetailedHelp } | { state: 'failed' }

type Answer =
  | { state: 'none' }
  | { state: 'sending'; question: string }
  | { state: 'answered'; question: string; text: string }
  | { state: 'failed'; question: string }

/**
 * The inside of an open help panel: the topic's short text, the detailed
 * explanation behind 'Show More Details' (loaded once) and the follow-up
 * question box. A separate chunk, loaded when a help icon is first opened.
 */
export default function HelpPanel({
  topic,
  title,
  userAction,
  onClose,
  children,
}: {
  topic: string
  title: string
  userAction?: string
  onClose: () => void
  children?: ReactNode
}) {
  const { userRole } = useHelp()
  const questionId = useId()
  const mounted = useRef(true)
  const answerBox = useRef<HTMLDivElement>(null)
  const [expanded, setExpanded] = useState(false)
  const [detail, setDetail] = useState<Detail>({ state: 'idle' })
  const [asking, setAsking] = useState(false)
  const questionForm = useForm<{ question: string }>({ defaultValues: { question: '' } })
  const question = questionForm.watch('question')
  const [answer, setAnswer] = useState<Answer>({ state: 'none' })

  // Keep the newest answer in sight inside the scrolling panel.
  useEffect(() => {
    answerBox.current?.scrollIntoView({ block: 'nearest' })
  }, [answer.state])

  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  const context = {
    topic,
    userAction,
    currentPage: typeof window === 'undefined' ? undefined : window.location.pathname,
    userRole,
  }

  const toggleDetails = () => {
    if (expanded) return setExpanded(false)
    setExpanded(true)
    // Loaded once; a failed load is tried again on the next expand.
    if (detail.state === 'loaded' || detail.state === 'loading') return
    setDetail({ state: 'loading' })
    helpAssistant.explain(context).then(
      (help) => mounted.current && setDetail({ state: 'loaded', help }),
      () => mounted.current && setDetail({ state: 'failed' }),
    )
  }

  const sending = answer.state === 'sending'
  // Sent at once rather than through handleSubmit (which resolves a tick
  // later): the question has no rules, and the Ask button disables as it is clicked.
  const ask = (event: FormEvent) => {
    event.preventDefault()
    const asked = questionForm.getValues('question').trim()
    if (!asked || sending) return
    questionForm.reset()
    setAnswer({ state: 'sending', question: asked })
    helpAssistant.answer(context, asked).then(
      (text) => mounted.current && setAnswer({ state: 'answered', question: asked, text }),
      () => mounted.current && setAnswer({ state: 'failed', question: asked }),
    )
  }

  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <p className="flex items-center gap-2 font-semibold text-slate-900">
          <Sparkles className="h-4 w-4 text-brand-600" aria-hidden />
          {title}
        </p>
        <button
          type="button"
          aria-label="Close help"
          onClick={onClose}
          className="-m-1 rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          <X className="h-4 w-4" aria-hidden />
        </button>
      </div>
      {children && <div className="mt-2 space-y-2">{children}</div>}
      <p className="mt-2">{basicHelpText(topic)}</p>

      {expanded && (
        <div className="mt-3 border-t border-slate-100 pt-3" aria-live="polite">
          {detail.state === 'loading' && (
            <p className="flex items-center gap-2 text-slate-500">
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
              Loading AI-powered explanation...
            </p>
          )}
          {detail.state === 'failed' && (
            <p role="alert" className="text-red-700">
              Failed to load AI explanation. Please try again.
            </p>
          )}
          {detail.state === 'loaded' && <DetailedExplanation help={detail.help} />}
        </div>
      )}

      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" onClick={toggleDetails} className={panelButton}>
          {expanded ? 'Show Less' : 'Show More Details'}
        </button>
        {!asking && (
          <button type="button" onClick={() => setAsking(true)} className={panelButton}>
            Ask a follow-up question
          </button>
        )}
      </div>

      {asking && (
        <form onSubmit={ask} className="mt-3 border-t border-slate-100 pt-3">
          <label htmlFor={questionId} className="block font-medium text-slate-900">
            Your question
          </label>
          <div className="mt-1.5 flex gap-2">
            <input
              id={questionId}
              placeholder={`Ask about ${title.toLowerCase()}`}
              autoFocus
              {...questionForm.register('question')}
              className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 text-sm placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40"
            />
            <button
              type="submit"
              disabled={!question.trim() || sending}
              className="inline-flex items-center gap-1.5 rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-white hover:bg-brand-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-50"
            >
              <Send className="h-3.5 w-3.5" aria-hidden />
              Ask
            </button>
          </div>
          {answer.state !== 'none' && (
            <div ref={answerBox} className="mt-3 rounded-lg bg-slate-50 p-3" aria-live="polite">
              <p className="font-medium text-slate-900">{answer.question}</p>
              {answer.state === 'sending' && (
                <p className="mt-1 flex items-center gap-2 text-slate-500">
                  <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
                  Thinking...
                </p>
              )}
              {answer.state === 'answered' && <p className="mt-1">{answer.text}</p>}
              {answer.state === 'failed' && (
                <p role="alert" className="mt-1 text-red-700">
                  Sorry, I couldn't process your question at this time. Please try again later.
                </p>
              )}
            </div>
          )}
        </form>
      )}
    </>
  )
}

const panelButton =
  'rounded-md border border-slate-200 px-2.5 py-1.5 text-xs font-medium text-brand-700 hover:bg-brand-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500'

function DetailedExplanation({ help }: { help: DetailedHelp }) {
  return (
    <div className="space-y-3">
      <p>{help.explanation}</p>
      {help.examples.length > 0 && <HelpList heading="Examples" items={help.examples} />}
      {help.tips.length > 0 && <HelpList heading="Tips" items={help.tips} />}
      {help.relatedTopics.length > 0 && (
        <div>
          <p className="font-medium text-slate-900">Related topics</p>
          <ul className="mt-1 flex flex-wrap gap-1.5">
            {help.relatedTopics.map((related) => (
              <li key={related.key} className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">
                {related.title}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}

function HelpList({ heading, items }: { heading: string; items: string[] }) {
  return (
    <div>
      <p className="font-medium text-slate-900">{heading}</p>
      <ul className="mt-1 list-disc space-y-1 pl-5">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  )
}
