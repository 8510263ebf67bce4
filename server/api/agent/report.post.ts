import { defineEventHandler, readValidatedBody } from 'h3'
import { ReportBody } from '#protocol'
import { useEngine } from '../../lib/app/use-engine'
import { sourceOf } from '../../lib/http/source'

export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, ReportBody.parse)
  return { ok: true, data: await useEngine().report(body, sourceOf(event)) }
})
