import { defineEventHandler, getValidatedRouterParams } from 'h3'
import { TokenIdParams, type RevokedToken } from '#protocol'
import { useAgentTokens } from '../../lib/app/use-agent-tokens'
import { notFound } from '../../lib/http/errors'

/** Revokes an agent token: its next call is refused. */
export default defineEventHandler(async (event) => {
  const { id } = await getValidatedRouterParams(event, TokenIdParams.parse)
  if (!(await useAgentTokens().revoke(id))) throw notFound(`No agent token ${id}: GET /api/tokens lists them.`)
  return { ok: true, data: { id, revoked: true } satisfies RevokedToken }
})
