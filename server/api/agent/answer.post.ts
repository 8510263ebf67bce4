import { defineEventHandler, readValidatedBody } from 'h3'
import { AnswerBody } from '#protocol'
import { sourceOf } from '../../lib/http/source'
import { useEngine } from '../../lib/tasks/use-engine'

export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, AnswerBody.parse)
  return { ok: true, data: await useEngine().answer(body, sourceOf(event)) }
})
