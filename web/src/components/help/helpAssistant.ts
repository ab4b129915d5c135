import { helpTopics, isHelpTopic, type HelpRequestContext } from './topics'
import type { HelpContent } from './helpContent'

/** The spec's simulated thinking times: the help is generated in the browser. */
export const EXPLANATION_DELAY_MS = 800
export const ANSWER_DELAY_MS = 1000

const NO_TOPIC_INFORMATION = "I don't have specific information about this topic yet."

export interface DetailedHelp {
  explanation: string
  examples: string[]
  tips: string[]
  relatedTopics: { key: string; title: string }[]
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
// The content is a separate chunk, fetched the first time anyone needs it.
const loadContent = () => import('./helpContent').then((module) => module.helpContent)

/**
 * Writes the help texts from the built-in topic content. Nothing leaves the
 * browser. It is an object so tests can make a call fail.
 */
export const helpAssistant = {
  async explain(context: HelpRequestContext): Promise<DetailedHelp> {
    const [content] = await Promise.all([loadContent(), wait(EXPLANATION_DELAY_MS)])
    if (!isHelpTopic(context.topic)) {
      return { explanation: NO_TOPIC_INFORMATION, examples: [], tips: [], relatedTopics: [] }
    }
    const topic = content[context.topic]
    const roleNote = topic.forRole?.[context.userRole ?? 'guest']
    return {
      explanation: roleNote ? `${topic.explanation} ${roleNote}` : topic.explanation,
      examples: topic.examples,
      tips: topic.tips,
      relatedTopics: topic.relatedTopics.map((key) => ({ key, title: helpTopics[key].title })),
    }
  },

  async answer(context: HelpRequestContext, question: string): Promise<string> {
    const [content] = await Promise.all([loadContent(), wait(ANSWER_DELAY_MS)])
    if (!isHelpTopic(context.topic)) return NO_TOPIC_INFORMATION
    return answerFrom(content[context.topic], helpTopics[context.topic].title, question)
  },
}

const STOP_WORDS = new Set(
  'a an and are as at be can do does for from how i if in is it me my of on or the this to what when where which who why with you your'.split(
    ' ',
  ),
)

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9$.-]+/)
    .map((word) => word.replace(/^[.-]+|[.-]+$/g, ''))
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word))
}

/**
 * Picks the sentences of the topic that share the most words with the
 * question; with no overlap it sums the topic up and points to a tip.
 */
function answerFrom(topic: HelpContent, title: string, question: string): string {
  const asked = new Set(wordsOf(question))
  const sentences = [
    ...topic.explanation.split(/(?<=\.)\s+/),
    ...topic.tips,
    ...topic.examples.map((e) => `For example: ${e}.`),
  ]
  const scored = sentences
    .map((sentence, order) => ({ sentence, order, score: wordsOf(sentence).filter((w) => asked.has(w)).length }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, 2)
  if (scored.length === 0) {
    const [firstSentence] = topic.explanation.split(/(?<=\.)\s+/)
    return `About ${title.toLowerCase()}: ${firstSentence} Tip: ${topic.tips[0]}`
  }
  return scored.map((s) => s.sentence.trim()).join(' ')
}
