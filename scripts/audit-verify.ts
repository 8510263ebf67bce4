/**
 * Verifies a Tandem audit without the server: a task folder, an events.jsonl, or an exported zip (or its folder).
 *   npm run audit:verify -- <path> [--key <fingerprint | public key file>] [--server <url> --token <token>]
 * Checks the chain, every file against the manifest, and the signature; with --key or --server, also that the
 * server's key made it. Prints one line; exits 0 when everything checks out, 1 when something does not, 2 when it
 * cannot start.
 */
import { parseArgs } from 'node:util'
import { keyFromArgument, keyFromServer, KnownKeyError } from '../server/lib/audit/known-key'
import { verifyAuditPath, type KnownKey } from '../server/lib/audit/verify-export'

const USAGE =
  'usage: npm run audit:verify -- <task folder | events.jsonl | export.zip | unzipped export> ' +
  '[--key <fingerprint | public key file>] [--server <url> --token <token>]'

let path: string
let key: KnownKey | undefined
try {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { key: { type: 'string' }, server: { type: 'string' }, token: { type: 'string' } },
  })
  if (positionals.length !== 1 || (values.key && values.server)) throw new KnownKeyError(USAGE)
  path = positionals[0]!
  if (values.key) key = await keyFromArgument(values.key)
  else if (values.server) key = await keyFromServer(values.server, values.token ?? process.env.TANDEM_TOKEN)
} catch (error) {
  console.error(error instanceof KnownKeyError ? error.message : `${(error as Error).message}\n${USAGE}`)
  process.exit(2)
}

try {
  const check = await verifyAuditPath(path, { key })
  console.log(check.verdict)
  process.exit(check.ok ? 0 : 1)
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  console.error(code === 'ENOENT' ? `FAIL ${path}: no such file or folder` : `FAIL ${path}: ${(error as Error).message}`)
  process.exit(2)
}
