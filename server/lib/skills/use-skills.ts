import { useConfig } from '../config'
import { loadSkills } from './load-skills'
import { createSkillIndex, type SkillIndex } from './search-index'

let index: Promise<SkillIndex> | undefined

/** The skills library, indexed once at start (and again by reloadSkills). */
export function useSkills(): Promise<SkillIndex> {
  return (index ??= reloadSkills())
}

export function reloadSkills(): Promise<SkillIndex> {
  index = (async () => {
    const dir = useConfig().skillsDir
    const { skills, problems } = await loadSkills(dir)
    for (const p of problems) console.warn(`[tandem] skipped skill ${p.file}: ${p.message}`)
    return createSkillIndex(skills)
  })()
  return index
}
