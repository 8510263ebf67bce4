import { defineEventHandler, readValidatedBody } from 'h3'
import { SaveRecordingBody } from '#protocol'
import { useSkillSaver } from '../../lib/app/use-skill-saver'

/** Saves a demonstration recorded in the side panel as skills/<slug>/SKILL.md: the person's SOP and a script that replays it. */
export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, SaveRecordingBody.parse)
  return { ok: true, data: await useSkillSaver().saveRecording(body) }
})
