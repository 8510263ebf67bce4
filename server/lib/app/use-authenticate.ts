import { createAuthenticator, type Authenticate } from '../auth/authenticate'
import { useAgentTokens } from './use-agent-tokens'
import { useToken } from './use-token'

let authenticate: Authenticate | undefined
export const useAuthenticate = (): Authenticate => (authenticate ??= createAuthenticator({ ownerToken: useToken().token, agentTokens: useAgentTokens() }))
