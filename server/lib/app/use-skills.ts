import type { Skill } from '#protocol'
import { loadSkills } from '../skills/load-skills'
import { createSkillIndex, type SkillIndex } from '../skills/search-index'
import { say } from '../terminal/words'
import { useConfig } from './use-config'

let index: Promise<SkillIndex> | undefined

/** The skills library, indexed once at start (and again by reloadSkills). */
export function useSkills(): Promise<SkillIndex> {
  return (index ??= reloadSkills())
}

/**
 * The shipped skills and the person's own (saved into the data dir) in one index. A saved skill never
 * replaces a shipped one of the same slug: the shipped folder is only ever read.
 */
export async function loadLibrary(shippedDir: string, userDir: string): Promise<{ skills: Skill[]; problems: { file: string; message: string }[] }> {
  const shipped = await loadSkills(shippedDir)
  const user = await loadSkills(userDir)
  const taken = new Set(shipped.skills.map((s) => s.slug))
  const problems = [...shipped.problems, ...user.problems.filter((p) => p.file !== userDir)]
  const own: Skill[] = []
  for (const skill of user.skills) {
    if (taken.has(skill.slug)) problems.push({ file: `${userDir}/${skill.slug}`, message: 'a shipped skill has this slug; rename the folder' })
    else own.push({ ...skill, own: true })
  }
  return { skills: [...shipped.skills, ...own], problems }
}

/** The start-up line: the shipped and the person's own counted apart, so the shipped count is the folder's. */
function indexedLine(count: number, own: number, dir: string, userDir: string): string {
  if (own) return say('skillsIndexedWithOwn', { count, shipped: count - own, dir, own, userDir })
  return count === 1 ? say('skillIndexed', { dir }) : say('skillsIndexed', { count, dir })
}

/** Reads the skills folders again and swaps the index in: for "save as skill" and edits on disk. */
export function reloadSkills(): Promise<SkillIndex> {
  const next = (async () => {
    const { skillsDir, userSkillsDir } = useConfig()
    const { skills, problems } = await loadLibrary(skillsDir, userSkillsDir)
    for (const p of problems) console.warn(say('skillSkipped', { file: p.file, message: p.message }))
    const built = createSkillIndex(skills)
    console.log(indexedLine(built.size, skills.filter((s) => s.own).length, skillsDir, userSkillsDir))
    return built
  })()
  // Searches keep the old index until the new one is ready.
  next.then(() => (index = next)).catch(() => {})
  index ??= next
  return next
}
