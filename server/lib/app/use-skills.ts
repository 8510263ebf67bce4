import { loadSkills } from '../skills/load-skills'
import { createSkillIndex, type SkillIndex } from '../skills/search-index'
import { useConfig } from './use-config'

let index: Promise<SkillIndex> | undefined

/** The skills library, indexed once at start (and again by reloadSkills). */
export function useSkills(): Promise<SkillIndex> {
  return (index ??= reloadSkills())
}

/** Reads the skills folder again and swaps the index in: for "save as skill" and edits on disk. */
export function reloadSkills(): Promise<SkillIndex> {
  const next = (async () => {
    const dir = useConfig().skillsDir
    const { skills, problems } = await loadSkills(dir)
    for (const p of problems) console.warn(`[tandem] skill skipped: ${p.file}: ${p.message}`)
    const built = createSkillIndex(skills)
    console.log(`[tandem] ${built.size} skills indexed from ${dir}`)
    return built
  })()
  // Searches keep the old index until the new one is ready.
  next.then(() => (index = next)).catch(() => {})
  index ??= next
  return next
}
