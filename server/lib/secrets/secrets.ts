const PLACEHOLDER = /\{\{\s*secret:([A-Za-z0-9_]+)\s*\}\}/g

/**
 * Named secrets from TANDEM_SECRET_<NAME> variables. The model sees only `{{secret:NAME}}`; the engine fills in
 * the value when it hands an action to the extension and scrubs it from everything it stores.
 */
export function createSecrets(env: NodeJS.ProcessEnv = process.env) {
  const values = new Map<string, string>()
  for (const [key, value] of Object.entries(env)) {
    const name = /^TANDEM_SECRET_([A-Za-z0-9_]+)$/.exec(key)?.[1]
    if (name && value) values.set(name.toUpperCase(), value)
  }
  return {
    names: () => [...values.keys()],
    values: () => [...values.values()],
    /** Fills every known placeholder; an unknown one stays as it is, so nothing is typed by guess. */
    substitute: (text: string) => text.replace(PLACEHOLDER, (whole, name: string) => values.get(name.toUpperCase()) ?? whole),
  }
}
export type Secrets = ReturnType<typeof createSecrets>

let secrets: Secrets | undefined
export const useSecrets = () => (secrets ??= createSecrets())
