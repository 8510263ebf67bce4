import { openStateStorage, type StateStorage } from '../state/open-state'
import { useConfig } from './use-config'

let opened: StateStorage | undefined
/** The server's one state storage (data dir or Redis), shared by the engine and the agent tokens. */
export const useStateStorage = (): StateStorage => (opened ??= openStateStorage(useConfig()))
