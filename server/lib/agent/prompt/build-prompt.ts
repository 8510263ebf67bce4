import type { Observation } from '#protocol'
import type { ChatMessage } from '../../llm/gateway'
import { SYSTEM_PROMPT } from './system'
import { cut, estimateTokens } from './tokens'

export interface HistoryEntry {
  step: number
  evaluation?: string
  memory?: string
  nextGoal?: string
  actions: string[]
  results: string[]
}

export interface PromptInput {
  goal: string
  history: HistoryEntry[]
  observation: Observation | null
  skills: { name: string; description: string; body?: string }[]
  secretNames: string[]
  notes: string[]
  maxTokens: number
}

const escapeAttr = (s: string) => s.replace(/"/g, '&quot;').replace(/[\r\n]+/g, ' ')
// Page text must not be able to close the block it is quoted in.
const fence = (s: string) => s.replace(/<\/?(untrusted_page|page_text)\b[^>]*>/gi, '[tag removed]')

function historyBlock(history: HistoryEntry[], full: number): string {
  return history
    .map((h, i) =>
      i >= history.length - full
        ? [
            `Step ${h.step}:`,
            h.evaluation && `  evaluation: ${cut(h.evaluation, 300)}`,
            h.memory && `  memory: ${cut(h.memory, 400)}`,
            h.nextGoal && `  next goal: ${cut(h.nextGoal, 200)}`,
            `  actions: ${h.actions.join('; ')}`,
            h.results.length && `  results: ${h.results.map((r) => cut(r, 600)).join('; ')}`,
          ]
            .filter(Boolean)
            .join('\n')
        : `Step ${h.step}: ${cut(h.actions.join('; '), 120)} → ${cut(h.results.join('; '), 120)}`,
    )
    .join('\n')
}

/**
 * The messages for one decision. Over the token budget, older steps are summarised first, then page text and
 * skills are cut, and the tree last: only the latest page is ever shown in full.
 */
export function buildPrompt(input: PromptInput): { messages: ChatMessage[]; tokens: number; treeTokens: number } {
  const obs = input.observation
  const render = (fullSteps: number, textLimit: number, skillLimit: number, treeLimit: number) => {
    const parts = [`<goal>\n${input.goal}\n</goal>`]
    if (input.secretNames.length) parts.push(`Secrets you may type as placeholders: ${input.secretNames.map((n) => `{{secret:${n}}}`).join(', ')}`)
    if (input.skills.length) {
      parts.push(
        `<skills>\n${input.skills.map((s) => `## ${s.name}\n${s.description}${s.body && skillLimit ? `\n${cut(s.body, skillLimit)}` : ''}`).join('\n\n')}\n</skills>`,
      )
    }
    if (input.history.length) parts.push(`<history>\n${historyBlock(input.history, fullSteps)}\n</history>`)
    for (const note of input.notes) parts.push(`Note: ${note}`)
    const tree = obs ? cut(fence(obs.elementTree || '(no interactive elements)'), treeLimit) : ''
    if (obs) {
      const scroll = obs.scroll ? `\n(${Math.round(obs.scroll.pixelsAbove)} px above, ${Math.round(obs.scroll.pixelsBelow)} px below)` : ''
      parts.push(`<untrusted_page url="${escapeAttr(obs.url)}" title="${escapeAttr(obs.title)}">\n${tree}${scroll}\n</untrusted_page>`)
      if (obs.visibleTextSnippet && textLimit) parts.push(`<page_text>\n${cut(fence(obs.visibleTextSnippet), textLimit)}\n</page_text>`)
    } else parts.push('No page has been observed yet.')
    parts.push('Answer with one JSON object.')
    const user = parts.join('\n\n')
    return { user, tokens: estimateTokens(SYSTEM_PROMPT) + estimateTokens(user), treeTokens: estimateTokens(tree) }
  }

  const attempts: [number, number, number, number][] = [
    [5, 4000, 1500, 200_000],
    [2, 2000, 600, 200_000],
    [1, 800, 0, 200_000],
    [0, 0, 0, 40_000],
    [0, 0, 0, 12_000],
  ]
  let result = render(...attempts[0])
  for (const a of attempts.slice(1)) {
    if (result.tokens <= input.maxTokens) break
    result = render(...a)
  }
  return {
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: result.user },
    ],
    tokens: result.tokens,
    treeTokens: result.treeTokens,
  }
}
