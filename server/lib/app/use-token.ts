import { resolveToken, type ResolvedToken } from '../auth/token'
import { useConfig } from './use-config'

let resolved: ResolvedToken | undefined
export const useToken = () => (resolved ??= resolveToken(useConfig().dataDir, useConfig().token))
