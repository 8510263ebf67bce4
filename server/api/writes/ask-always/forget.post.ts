import { defineEventHandler, readValidatedBody } from 'h3'
import { AskAlwaysBody } from '#protocol'
import { useEngine } from '../../../lib/app/use-engine'

/** The harmless kind goes unasked on the site again. Answers the list after. */
export default defineEventHandler(async (event) => {
  const rule = await readValidatedBody(event, AskAlwaysBody.parse)
  return { ok: true, data: await useEngine().forgetAskAlways(rule) }
})
