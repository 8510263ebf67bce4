import { defineEventHandler, readValidatedBody } from 'h3'
import { NextBody } from '#protocol'
import { useEngine } from '../../lib/app/use-engine'
import { closedSignal, sourceOf } from '../../lib/http/source'

export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, NextBody.parse)
  return { ok: true, data: await useEngine().next(body, sourceOf(event, body.clientId), closedSignal(event)) }
})
