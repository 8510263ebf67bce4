import { MIN_REDACT_LENGTH } from './redact'

const PLACEHOLDER = /\{\{\s*secret:([A-Za-z0-9_]+)\s*\}\}/g
const VARIABLE = /^TANDEM_SECRET_([A-Za-z0-9_]+)$/

/** Named secrets ({{secret:NAME}}) as the engine uses them: the model and the audit see names, only the extension gets values. */
export interface SecretVault {
  /** The values, for scrubbing whatever the server stores. */
  values(): string[]
  /** Fills every known placeholder; an unknown one stays as it is, so nothing is typed by guess. */
  substitute(text: string): string
}

export interface Secrets extends SecretVault {
  /** The names the model may use as {{secret:NAME}}. */
  names(): string[]
  /** Every secret value in `text` replaced by its placeholder. */
  redact(text: string): string
}

/**
 * Named secrets from TANDEM_SECRET_<NAME> variables. The model sees only `{{secret:NAME}}`; the engine fills in
 * the value when it hands an action to the extension and scrubs it from everything it stores.
 */
export function createSecrets(env: NodeJS.ProcessEnv = process.env): Secrets {
  const values = new Map<string, string>()
  for (const [key, value] of Object.entries(env)) {
    const name = VARIABLE.exec(key)?.[1]
    if (name && value) values.set(name.toUpperCase(), value)
  }
  // Longest first, so a value that contains another is replaced whole.
  const redactable = [...values]
    .filter(([, value]) => value.length >= MIN_REDACT_LENGTH)
    .sort((a, b) => b[1].length - a[1].length)
  return {
    names: () => [...values.keys()],
    values: () => [...values.values()],
    substitute: (text) => text.replace(PLACEHOLDER, (whole, name: string) => values.get(name.toUpperCase()) ?? whole),
    redact: (text) => redactable.reduce((out, [name, value]) => (out.includes(value) ? out.split(value).join(`{{secret:${name}}}`) : out), text),
  }
}
