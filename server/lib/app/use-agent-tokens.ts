import { createAgentTokens, type AgentTokens } from '../auth/agent-tokens'
import { useStateStorage } from './use-state'

let tokens: AgentTokens | undefined
export const useAgentTokens = (): AgentTokens => (tokens ??= createAgentTokens(useStateStorage().storage))
