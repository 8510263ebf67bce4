import { defineEventHandler, readValidatedBody } from 'h3'
import { TaskCommandBody } from '#protocol'
import { sourceOf } from '../../lib/http/source'
import { useEngine } from '../../lib/tasks/use-engine'

export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, TaskCommandBody.parse)
  return { ok: true, data: await useEngine().resume(body, sourceOf(event)) }
})
