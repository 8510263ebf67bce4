import { defineEventHandler, getRequestURL, readValidatedBody } from 'h3'
import { StartBody } from '#protocol'
import { useEngine } from '../../lib/app/use-engine'
import { sourceOf } from '../../lib/http/source'

export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, StartBody.parse)
  return { ok: true, data: await useEngine().start(body, sourceOf(event, body.clientId), getRequestURL(event).origin) }
})
