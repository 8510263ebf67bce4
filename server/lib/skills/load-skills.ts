import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SkillSlug, type Skill } from '#protocol'
import { parseSkill } from './parse-skill'

export interface SkillProblem {
  file: string
  message: string
}

/** Reads every skills/<slug>/SKILL.md; a broken one is reported and skipped, never fatal. */
export async function loadSkills(dir: string): Promise<{ skills: Skill[]; problems: SkillProblem[] }> {
  const skills: Skill[] = []
  const problems: SkillProblem[] = []
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const message = code === 'ENOENT' ? 'no skills folder here: the library is empty (set TANDEM_SKILLS_DIR)' : String(error)
    return { skills, problems: [{ file: dir, message }] }
  }
  for (const entry of entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).sort((a, b) => a.name.localeCompare(b.name))) {
    const file = join(dir, entry.name, 'SKILL.md')
    if (!SkillSlug.safeParse(entry.name).success) {
      problems.push({ file, message: 'the folder name is not a slug (lowercase letters, digits and -)' })
      continue
    }
    try {
      skills.push(parseSkill(entry.name, await readFile(file, 'utf8')))
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      problems.push({ file, message: code === 'ENOENT' ? 'no SKILL.md in this folder' : (error as Error).message })
    }
  }
  return { skills, problems }
}
