import { defineEventHandler, readValidatedBody } from 'h3'
import { StartBody } from '#protocol'
import { sourceOf } from '../../lib/http/source'
import { useEngine } from '../../lib/tasks/use-engine'

export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, StartBody.parse)
  return { ok: true, data: await useEngine().start(body, sourceOf(event, body.clientId)) }
})
