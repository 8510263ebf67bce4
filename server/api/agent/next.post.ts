import { defineEventHandler, readValidatedBody } from 'h3'
import { NextBody } from '#protocol'
import { closedSignal, sourceOf } from '../../lib/http/source'
import { useEngine } from '../../lib/tasks/use-engine'

export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, NextBody.parse)
  return { ok: true, data: await useEngine().next(body, sourceOf(event, body.clientId), closedSignal(event)) }
})
