import type { Principal } from '#protocol'
import type { AgentTokens } from './agent-tokens'
import { tokenMatches } from './token'

/** What a request says about itself, past its token: only ever used to tell the owner's own surfaces apart. */
export interface Surface {
  /** The extension names its instance on every call (X-Tandem-Client). */
  clientId?: string
  /** The console says it is the console (X-Tandem-Surface). */
  surface?: string
}

export interface AuthenticateDeps {
  ownerToken: string
  agentTokens: Pick<AgentTokens, 'verify'>
}

/**
 * The principal a bearer token proves, or null. The owner's token is compared in constant time first; anything
 * else is looked up as an agent token. Headers only say which of the owner's surfaces asked: an agent's token is
 * an agent whatever header it comes with.
 */
export function createAuthenticator(deps: AuthenticateDeps) {
  return async function authenticate(bearer: string | undefined, surface: Surface = {}): Promise<Principal | null> {
    if (!bearer) return null
    if (tokenMatches(deps.ownerToken, bearer)) {
      return { kind: 'owner', via: surface.clientId ? 'panel' : surface.surface === 'console' ? 'console' : 'api' }
    }
    const agent = await deps.agentTokens.verify(bearer)
    return agent ? { kind: 'agent', tokenId: agent.id, name: agent.name } : null
  }
}
export type Authenticate = ReturnType<typeof createAuthenticator>
