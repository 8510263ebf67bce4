import { defineEventHandler, readValidatedBody } from 'h3'
import { TaskCommandBody } from '#protocol'
import { useEngine } from '../../lib/app/use-engine'
import { sourceOf } from '../../lib/http/source'

export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, TaskCommandBody.parse)
  return { ok: true, data: await useEngine().resume(body, sourceOf(event)) }
})
