import { defineEventHandler, readValidatedBody } from 'h3'
import { AnswerBody } from '#protocol'
import { useEngine } from '../../lib/app/use-engine'
import { sourceOf } from '../../lib/http/source'

export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, AnswerBody.parse)
  return { ok: true, data: await useEngine().answer(body, sourceOf(event)) }
})
