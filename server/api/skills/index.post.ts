import { defineEventHandler, readValidatedBody } from 'h3'
import { SaveSkillBody } from '#protocol'
import { useSkillSaver } from '../../lib/app/use-skill-saver'

/** Saves a finished task as skills/<slug>/SKILL.md: its SOP and a script that replays it without an LLM. */
export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, SaveSkillBody.parse)
  return { ok: true, data: await useSkillSaver().save(body) }
})
