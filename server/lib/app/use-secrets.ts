import { createSecrets, type Secrets } from '../privacy/secrets'

let secrets: Secrets | undefined
/** The server's secrets, read from its environment once. */
export const useSecrets = (): Secrets => (secrets ??= createSecrets())
