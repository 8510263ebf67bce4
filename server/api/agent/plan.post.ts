import { defineEventHandler, readValidatedBody } from 'h3'
import { PlanBody } from '#protocol'
import { useEngine } from '../../lib/app/use-engine'
import { sourceOf } from '../../lib/http/source'

export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, PlanBody.parse)
  return { ok: true, data: await useEngine().answerPlan(body, sourceOf(event)) }
})
