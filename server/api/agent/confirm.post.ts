import { defineEventHandler, readValidatedBody } from 'h3'
import { ConfirmBody } from '#protocol'
import { sourceOf } from '../../lib/http/source'
import { useEngine } from '../../lib/tasks/use-engine'

export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, ConfirmBody.parse)
  return { ok: true, data: await useEngine().confirm(body, sourceOf(event)) }
})
