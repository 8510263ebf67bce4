import { useConfig } from '../config'
import { resolveToken, type ResolvedToken } from './token'

let resolved: ResolvedToken | undefined
export const useToken = () => (resolved ??= resolveToken(useConfig().dataDir, useConfig().token))
