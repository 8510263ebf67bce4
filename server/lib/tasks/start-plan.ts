import type { ScriptStep, Skill, StartBody, WordsZh } from '#protocol'
import { wordsZhOf } from '#protocol'
import { badRequest, llmNotConfigured, notFound } from '../http/errors'
import { fillParameters, missingParameters } from './fill-parameters'

/** How a new task runs: its steps (script) or the model (llm), and the skill it came from. */
export interface StartPlan {
  mode: 'script' | 'llm'
  script?: ScriptStep[]
  skill?: string
  /** The skill's name as the person gave it, for every place that says which skill the task follows. */
  skillName?: string
  /** The skill's Chinese for the words the task says. */
  wordsZh?: WordsZh
  /** Where the task opens first: the request's start URL, else the skill's when its script does not navigate first. */
  startUrl?: string
}

export type FindSkill = (slug: string) => Promise<Skill | undefined>

/** A skill's start URL; a path is a page of this server (the demo), at the address the request came to. */
function onServer(startUrl: string | undefined, serverOrigin: string | undefined): string | undefined {
  if (!startUrl?.startsWith('/')) return startUrl
  return serverOrigin ? new URL(startUrl, serverOrigin).href : undefined
}

/**
 * Decides how a start request runs. A skill with a script replays it with no LLM unless `mode` is `llm`;
 * a script given in the request always runs as it is.
 */
export async function planStart(body: StartBody, findSkill: FindSkill | undefined, hasLlm: boolean, serverOrigin?: string): Promise<StartPlan> {
  const skill = body.skill ? await findSkill?.(body.skill) : undefined
  if (body.skill && !skill) throw notFound(`No skill ${body.skill}: see GET /api/skills for the library.`)
  const wordsZh = skill ? wordsZhOf(skill) : undefined
  const named = skill ? { skill: skill.slug, skillName: skill.name, ...(wordsZh ? { wordsZh } : {}) } : {}
  let plan: StartPlan
  if (body.script) {
    if (body.mode === 'llm') throw badRequest('A task with a script runs it without an LLM: leave out mode or set it to "script".')
    plan = { mode: 'script', script: body.script, ...named }
  } else if (skill?.script?.length && body.mode !== 'llm') {
    const missing = missingParameters(skill.parameters, body.params)
    if (missing.length) {
      throw badRequest(`The skill ${skill.slug} needs ${missing.map((p) => `${p.name} (${p.label})`).join(', ')}: fill them in as params.`, {
        skill: skill.slug,
        missing: missing.map((p) => p.name),
      })
    }
    const script = fillParameters(skill.script, skill.parameters, body.params)
    const opensItself = script[0]?.type === 'navigate'
    const startUrl = body.startUrl ?? (!opensItself ? onServer(skill['start-url'], serverOrigin) : undefined)
    plan = { mode: 'script', script, ...named, ...(startUrl ? { startUrl } : {}) }
  } else if (body.mode === 'script') {
    throw badRequest(
      skill
        ? `The skill ${skill.slug} has no script to run: start it with mode "llm", or add a script to its SKILL.md.`
        : 'mode "script" needs a script, or a skill that has one.',
      skill ? { skill: skill.slug } : undefined,
    )
  } else {
    plan = { mode: 'llm', ...named }
  }
  if (plan.mode === 'llm' && !hasLlm) throw llmNotConfigured()
  if (body.startUrl) plan.startUrl = body.startUrl
  return plan
}
