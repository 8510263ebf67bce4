import type { Risk, SkillFrontmatter } from '#protocol'
import { cutText } from '#protocol'
import { frontmatterValue as q } from './frontmatter-value'
import type { RecordedStep } from './recorded-steps'

export interface SkillDraft {
  name: string
  description: string
  goal: string
  sites: string[]
  tags: string[]
  steps: RecordedStep[]
  /** The page the task started on, opened first when the skill runs. */
  startUrl?: string
  /** Where it came from, for the SOP's last section. */
  source: { taskId: string; status: string; at: string }
}

const reasonOf = ({ step }: RecordedStep) => ('reason' in step && step.reason ? step.reason.replace(/\s+/g, ' ') : undefined)
const RANK: Record<Risk, number> = { low: 0, medium: 1, high: 2 }
const list = (key: string, items: string[]) => (items.length ? `${key}:\n${items.map((i) => `  - ${i}`).join('\n')}` : `${key}: []`)

/** The skill's parameters, one per name, in the order the steps first ask for them. */
export function parametersOf(steps: RecordedStep[]): { name: string; label: string }[] {
  const out = new Map<string, { name: string; label: string }>()
  for (const s of steps) if (s.parameter && !out.has(s.parameter.name)) out.set(s.parameter.name, { name: s.parameter.name, label: s.parameter.label })
  return [...out.values()]
}

/** The frontmatter fields a draft makes, as SkillFrontmatter names them. */
export function frontmatterOf(draft: SkillDraft): Omit<SkillFrontmatter, 'script'> & { script: RecordedStep['step'][] } {
  const risk = draft.steps.reduce<Risk>((worst, s) => (RANK[s.risk] > RANK[worst] ? s.risk : worst), 'low')
  return {
    name: draft.name,
    description: draft.description,
    sites: draft.sites,
    tags: draft.tags,
    risk,
    'allowed-actions': [...new Set(draft.steps.map((s) => s.step.type))] as SkillFrontmatter['allowed-actions'],
    'risky-steps': draft.steps.filter((s) => s.risk === 'high').map((s) => cutText(s.words, 500)),
    script: draft.steps.map((s) => s.step),
    ...(parametersOf(draft.steps).length ? { parameters: parametersOf(draft.steps) } : {}),
    ...(draft.startUrl ? { 'start-url': draft.startUrl } : {}),
  }
}

/**
 * SKILL.md for a recorded task: frontmatter in the subset parseSkill reads (every string JSON-quoted, the script
 * one JSON object a line, nothing in either that a reader could take for the end of a line), then the SOP a person can follow: goal, sites, numbered steps, approvals, secrets.
 */
export function renderSkill(draft: SkillDraft): string {
  const fm = frontmatterOf(draft)
  const header = [
    '---',
    `name: ${q(fm.name)}`,
    `description: ${q(fm.description)}`,
    list('sites', fm.sites.map(q)),
    list('tags', fm.tags.map(q)),
    `risk: ${fm.risk}`,
    list('allowed-actions', fm['allowed-actions']),
    list('risky-steps', fm['risky-steps'].map(q)),
    list('script', fm.script.map(q)),
    ...(fm.parameters ? [list('parameters', fm.parameters.map(q))] : []),
    ...(fm['start-url'] ? [`start-url: ${q(fm['start-url'])}`] : []),
    '---',
  ]
  const approvals = draft.steps.flatMap((s, i) => (s.risk === 'high' ? [i + 1] : []))
  const secrets = new Map<string, string>()
  for (const s of draft.steps) for (const secret of s.secrets ?? []) if (!secrets.has(secret.name)) secrets.set(secret.name, secret.field)
  const body = [
    `# ${draft.name}`,
    '',
    draft.description,
    '',
    '## Goal',
    draft.goal,
    '',
    '## Sites',
    ...(draft.sites.length ? draft.sites.map((s) => `- ${s}`) : ['- any site']),
    ...(draft.startUrl ? ['', '## Starts at', draft.startUrl] : []),
    '',
    ...(fm.parameters
      ? [
          '## What you fill in',
          'What was typed when this was recorded is not kept: Tandem asks for these each time the skill runs.',
          ...fm.parameters.map((p) => `- {{${p.name}}}`),
          '',
        ]
      : []),
    '## Steps',
    ...draft.steps.map((s, i) => `${i + 1}. ${s.words}${s.risk === 'high' ? ' — **needs your approval**' : ''}${reasonOf(s) ? ` — ${reasonOf(s)}` : ''}`),
    '',
    '## Approval',
    approvals.length
      ? `Step${approvals.length > 1 ? 's' : ''} ${approvals.join(', ')} ${approvals.length > 1 ? 'are' : 'is'} high-risk: Tandem stops and asks you to approve ${approvals.length > 1 ? 'each one' : 'it'} before it runs, with a picture of the page.`
      : 'No step needs approval when the pages look as they did; Tandem still asks if a page turns out riskier.',
    ...(secrets.size
      ? [
          '',
          '## Secrets',
          'Values typed into credential fields are not stored. Set these on the server before running the skill:',
          ...[...secrets].map(([name, field]) => `- \`{{secret:${name}}}\` (${field.replace(/\s+/g, ' ')}): set TANDEM_SECRET_${name}`),
        ]
      : []),
    '',
    '## Recorded from',
    `Task ${draft.source.taskId} (${draft.source.status}, ${draft.source.at}). Start a task with this skill to replay the script without an LLM.`,
  ]
  return `${header.join('\n')}\n${body.join('\n')}\n`
}
