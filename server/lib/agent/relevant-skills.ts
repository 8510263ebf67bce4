import type { Observation } from '#protocol'
import type { TaskRecord } from '../tasks/task-record'
import type { PromptSkill } from './prompt/build-prompt'

/** The skills library as the planner uses it (server/lib/skills/ provides it). */
export interface SkillSource {
  search(q: string, options: { site?: string; limit?: number }): { slug: string; name: string; description: string }[]
  get(slug: string): { name: string; description: string; body: string } | undefined
}

/** The library itself, or how to get it once it is indexed. */
export type SkillsDependency = SkillSource | (() => SkillSource | Promise<SkillSource>)

const hostOf = (url: string | undefined) => {
  try {
    return url ? new URL(url).hostname : undefined
  } catch {
    return undefined
  }
}

/**
 * The procedures worth showing the model: the one the task was started with, then the best matches for the
 * goal on this site, then anywhere. A broken library costs the prompt its skills, never the decision.
 */
export async function relevantSkills(dep: SkillsDependency | undefined, task: TaskRecord, observation: Observation | null, limit = 3): Promise<PromptSkill[]> {
  if (!dep) return []
  try {
    const source = typeof dep === 'function' ? await dep() : dep
    const slugs = new Set<string>(task.skill ? [task.skill] : [])
    const site = hostOf(observation?.url ?? task.startUrl)
    if (site) for (const hit of source.search(task.goal, { site, limit })) slugs.add(hit.slug)
    if (slugs.size < limit) for (const hit of source.search(task.goal, { limit })) slugs.add(hit.slug)
    return [...slugs].slice(0, limit).flatMap((slug) => {
      const skill = source.get(slug)
      return skill ? [{ name: skill.name, description: skill.description, body: skill.body }] : []
    })
  } catch (error) {
    console.warn('[tandem] skills unavailable for planning:', (error as Error)?.message ?? error)
    return []
  }
}
