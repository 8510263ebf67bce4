import { defineEventHandler, readValidatedBody, setResponseStatus } from 'h3'
import { CreateTokenBody } from '#protocol'
import { useAgentTokens } from '../../lib/app/use-agent-tokens'

/** A token for an outside agent: it opens /mcp only. The answer is the one time the token is shown. */
export default defineEventHandler(async (event) => {
  const body = await readValidatedBody(event, CreateTokenBody.parse)
  const created = await useAgentTokens().create(body)
  setResponseStatus(event, 201)
  return { ok: true, data: created }
})
