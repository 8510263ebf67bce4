import { defineEventHandler, readValidatedBody } from 'h3'
import { ConfirmBody } from '#protocol'
import { useEngine } from '../../lib/app/use-engine'
import { sourceOf } from '../../lib/http/source'

export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, ConfirmBody.parse)
  return { ok: true, data: await useEngine().confirm(body, sourceOf(event)) }
})
