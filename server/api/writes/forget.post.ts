import { defineEventHandler, readValidatedBody } from 'h3'
import { ForgetWriteBody } from '#protocol'
import { useEngine } from '../../lib/app/use-engine'

/** The person no longer always allows this kind of write: it is asked about again. Answers the list after. */
export default defineEventHandler(async (event) => {
  const rule = await readValidatedBody(event, ForgetWriteBody.parse)
  return { ok: true, data: await useEngine().forgetAllowedWrite(rule) }
})
