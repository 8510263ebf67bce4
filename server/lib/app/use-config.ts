import { loadConfig, type Config } from '../config'

let cached: Config | undefined
/** The server's settings, read from its environment once (a wrong one throws ConfigError; see plugins/config.ts). */
export const useConfig = (): Config => (cached ??= loadConfig())
