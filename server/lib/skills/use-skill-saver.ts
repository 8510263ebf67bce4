import { useAuditLog } from '../audit/use-audit'
import { useConfig } from '../config'
import { useSecrets } from '../privacy/secrets'
import { useEngine } from '../tasks/use-engine'
import { createSkillSaver, type SkillSaver } from './save-skill'
import { useSkills } from './use-skills'

let saver: SkillSaver | undefined

/** The server's "save as skill", over its engine, audit log and skills library. */
export const useSkillSaver = (): SkillSaver =>
  (saver ??= createSkillSaver({
    status: (taskId) => useEngine().status(taskId),
    events: (taskId) => useAuditLog().read(taskId),
    skillsDir: useConfig().skillsDir,
    index: () => useSkills(),
    redact: (text) => useSecrets().redact(text),
  }))
