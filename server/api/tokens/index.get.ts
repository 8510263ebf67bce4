import { defineEventHandler } from 'h3'
import { useAgentTokens } from '../../lib/app/use-agent-tokens'

/** The agent tokens the owner made: name, scope, made, last used; never a token. */
export default defineEventHandler(async () => ({ ok: true, data: await useAgentTokens().list() }))
