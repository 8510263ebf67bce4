import { createSkillSaver, type SkillSaver } from '../skills/save-skill'
import { useAuditLog } from './use-audit'
import { useConfig } from './use-config'
import { useEngine } from './use-engine'
import { useSecrets } from './use-secrets'
import { useSkills } from './use-skills'

let saver: SkillSaver | undefined

/** The server's "save as skill", over its engine, audit log and skills library. */
export const useSkillSaver = (): SkillSaver =>
  (saver ??= createSkillSaver({
    status: (taskId) => useEngine().status(taskId),
    events: (taskId) => useAuditLog().read(taskId),
    skillsDir: useConfig().userSkillsDir,
    index: () => useSkills(),
    redact: (text) => useSecrets().redact(text),
  }))
