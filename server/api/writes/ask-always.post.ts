import { defineEventHandler, readValidatedBody } from 'h3'
import { AskAlwaysBody } from '#protocol'
import { useEngine } from '../../lib/app/use-engine'
import { sourceOf } from '../../lib/http/source'

/** "Always ask" about a harmless kind of write on a site: the barrier holds it there from the next action. Answers the list after. */
export default defineEventHandler(async (event) => {
  const rule = await readValidatedBody(event, AskAlwaysBody.parse)
  return { ok: true, data: await useEngine().askAlways(rule, sourceOf(event)) }
})
