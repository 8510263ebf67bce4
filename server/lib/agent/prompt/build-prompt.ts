import type { Observation, TaskPlan } from '#protocol'
import type { ChatMessage, ContentPart } from '../../llm/gateway'
import { renderHistory, type HistoryEntry, type HistoryView } from './history'
import { renderPage } from './page-block'
import { SYSTEM_PROMPT } from './system'
import { cut, estimateTokens } from './tokens'

export interface PromptSkill {
  name: string
  description: string
  body?: string
}

export interface PromptInput {
  goal: string
  history: HistoryEntry[]
  /** Steps dropped from the stored history; the prompt says they were there. */
  omittedSteps?: number
  observation: Observation | null
  skills: PromptSkill[]
  secretNames: string[]
  notes: string[]
  /** "step 4 of at most 40" */
  step?: { current: number; max: number }
  /** A data: URL of the current page, sent only when vision is on. */
  screenshot?: string
  maxTokens: number
  /** The plan the person approved for a plan-first task: shown at every step. */
  plan?: TaskPlan
}

export interface BuiltPrompt {
  messages: ChatMessage[]
  /** Estimated tokens of everything sent, and of the element tree alone. */
  tokens: number
  treeTokens: number
  /** How hard the prompt had to be compacted (0: not at all). */
  level: number
}

// A screenshot's cost at "auto" detail is a few hundred to a thousand tokens; budget for the high end.
const IMAGE_TOKENS = 1000
const MIN_TREE_CHARS = 1500

interface Level extends HistoryView {
  textChars: number
  skillChars: number
}

// Each level gives up more: older steps become one line, then page text and skill bodies shrink, then go.
const LEVELS: Level[] = [
  { fullSteps: 5, summaryLines: 40, fieldChars: 400, textChars: 4000, skillChars: 2000 },
  { fullSteps: 3, summaryLines: 20, fieldChars: 300, textChars: 2000, skillChars: 800 },
  { fullSteps: 2, summaryLines: 10, fieldChars: 200, textChars: 800, skillChars: 0 },
  { fullSteps: 1, summaryLines: 5, fieldChars: 150, textChars: 0, skillChars: 0 },
]

function render(input: PromptInput, level: Level, treeChars: number) {
  const parts = [`<goal>\n${cut(input.goal, 4000)}\n</goal>`]
  if (input.plan) parts.push(renderPlan(input.plan))
  if (input.step) parts.push(`This is step ${input.step.current} of at most ${input.step.max}.`)
  if (input.secretNames.length) {
    parts.push(`Secrets you may type as placeholders: ${input.secretNames.map((n) => `{{secret:${n}}}`).join(', ')}`)
  }
  if (input.skills.length) {
    const skills = input.skills.map(
      (s) => `## ${s.name}\n${cut(s.description, 300)}${s.body && level.skillChars ? `\n${cut(s.body, level.skillChars)}` : ''}`,
    )
    parts.push(`<skills>\nProcedures that may fit this task (the goal wins where they differ):\n\n${skills.join('\n\n')}\n</skills>`)
  }
  if (input.history.length) parts.push(`<history>\n${renderHistory(input.history, level, input.omittedSteps)}\n</history>`)
  for (const note of input.notes) parts.push(`Note: ${note}`)
  let tree = ''
  if (input.observation) {
    const page = renderPage(input.observation, { treeChars, textChars: level.textChars })
    parts.push(page.text)
    tree = page.tree
  } else parts.push('No page has been observed yet.')
  parts.push('Answer with one JSON object.')
  const user = parts.join('\n\n')
  const tokens = estimateTokens(SYSTEM_PROMPT) + estimateTokens(user) + (input.screenshot ? IMAGE_TOKENS : 0)
  return { user, tokens, treeTokens: estimateTokens(tree) }
}

/** The approved plan, as the model follows it: the person's instructions, like the goal. */
function renderPlan(plan: TaskPlan): string {
  const steps = plan.steps.map((s, i) => `${i + 1}. ${cut(s, 300)}`).join('\n')
  const sends = plan.sends.length ? plan.sends.map((s) => `- ${cut(s.what, 300)} (${s.kind})`).join('\n') : '- nothing'
  return [
    '<approved_plan>',
    'The person approved this plan. Follow it. A step on a site not listed, or a kind of sending not listed, stops for the person to approve again.',
    `Steps:\n${steps}`,
    `Sites: ${plan.sites.join(', ')}`,
    `Sends:\n${sends}`,
    '</approved_plan>',
  ].join('\n')
}

/**
 * The messages for one decision, within `maxTokens` (estimated). Compaction gives up, in order: older steps'
 * detail, page text and skill bodies, then the tail of the element tree. Only the latest page is ever shown.
 */
export function buildPrompt(input: PromptInput): BuiltPrompt {
  const fullTree = input.observation?.elementTree.length ?? 0
  let level = 0
  let result = render(input, LEVELS[0], Infinity)
  while (result.tokens > input.maxTokens && level < LEVELS.length - 1) result = render(input, LEVELS[++level], Infinity)
  // Still over: cut the tree to what is left of the budget, never below a screenful of elements.
  let treeChars = fullTree
  let treeCut = false
  while (result.tokens > input.maxTokens && treeChars > MIN_TREE_CHARS) {
    const over = result.tokens - input.maxTokens
    treeChars = Math.max(MIN_TREE_CHARS, Math.floor(Math.min(treeChars * 0.9, treeChars - over * 3)))
    result = render(input, LEVELS[level], treeChars)
    treeCut = true
  }
  const content: ChatMessage['content'] = input.screenshot
    ? ([
        { type: 'text', text: result.user },
        { type: 'image_url', image_url: { url: input.screenshot, detail: 'auto' } },
      ] satisfies ContentPart[])
    : result.user
  return {
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content },
    ],
    tokens: result.tokens,
    treeTokens: result.treeTokens,
    level: level + (treeCut ? 1 : 0),
  }
}
