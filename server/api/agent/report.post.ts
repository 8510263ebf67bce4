import { defineEventHandler, readValidatedBody } from 'h3'
import { ReportBody } from '#protocol'
import { sourceOf } from '../../lib/http/source'
import { useEngine } from '../../lib/tasks/use-engine'

export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, ReportBody.parse)
  return { ok: true, data: await useEngine().report(body, sourceOf(event)) }
})
