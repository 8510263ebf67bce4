import { defineEventHandler } from 'h3'
import { useSkills } from '../../lib/app/use-skills'

/** The whole library as summaries, for the console's skills list. */
export default defineEventHandler(async () => ({ ok: true, data: (await useSkills()).list() }))
