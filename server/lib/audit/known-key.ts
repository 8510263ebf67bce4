import { createPublicKey } from 'node:crypto'
import { promises as fsp } from 'node:fs'
import { AuditKeyInfo, Ed25519PublicKey } from '#protocol'
import { fingerprintOf, rawPublicKey } from './signature'
import type { KnownKey } from './verify-signature'

/** The key could not be known: the verifier cannot start (exit 2), which is not a verdict on the audit. */
export class KnownKeyError extends Error {
  override name = 'KnownKeyError'
}

const FINGERPRINT = /^(?:ed25519:)?([0-9a-f]{32})$/i

/** A public key file's fingerprint: SPKI PEM (audit-signing-key.pub.pem), the raw key in base64, or a fingerprint. */
function fingerprintInFile(text: string, file: string): string {
  const trimmed = text.trim()
  const named = FINGERPRINT.exec(trimmed)
  if (named) return `ed25519:${named[1]!.toLowerCase()}`
  if (Ed25519PublicKey.safeParse(trimmed).success) return fingerprintOf(Buffer.from(trimmed, 'base64'))
  try {
    const key = createPublicKey(trimmed)
    if (key.asymmetricKeyType === 'ed25519') return fingerprintOf(rawPublicKey(key))
  } catch {}
  throw new KnownKeyError(`${file} is not an Ed25519 public key (PEM, or its 32 bytes in base64) nor a fingerprint.`)
}

/** `--key`: a fingerprint (ed25519:<32 hex digits>, the prefix optional) or the path of a public key file. */
export async function keyFromArgument(argument: string): Promise<KnownKey> {
  let text: string | undefined
  try {
    text = await fsp.readFile(argument, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENAMETOOLONG') throw new KnownKeyError(`${argument} could not be read (${code}).`)
  }
  if (text !== undefined) return { fingerprint: fingerprintInFile(text, argument), from: argument }
  const named = FINGERPRINT.exec(argument)
  if (!named) throw new KnownKeyError('--key takes a fingerprint (ed25519: and 32 hex digits, as the server prints it) or a public key file.')
  return { fingerprint: `ed25519:${named[1]!.toLowerCase()}`, from: '--key' }
}

/** `--server`: the key the server signs with, asked of it (GET /api/audit/key) with its token. */
export async function keyFromServer(url: string, token: string | undefined, fetchFn: typeof fetch = fetch): Promise<KnownKey> {
  if (!token) throw new KnownKeyError('--server needs the server\'s token: pass --token <token> or set TANDEM_TOKEN.')
  let endpoint: URL
  try {
    endpoint = new URL('/api/audit/key', url)
  } catch {
    throw new KnownKeyError(`--server takes the server's address, such as http://127.0.0.1:3000.`)
  }
  let res: Response
  try {
    res = await fetchFn(endpoint, { headers: { authorization: `Bearer ${token}` } })
  } catch (error) {
    throw new KnownKeyError(`${endpoint.origin} did not answer (${(error as Error).message}).`)
  }
  if (res.status === 401) throw new KnownKeyError(`${endpoint.origin} refused the token.`)
  const body = (await res.json().catch(() => null)) as { ok?: boolean; data?: unknown } | null
  const info = AuditKeyInfo.safeParse(body?.data)
  if (!res.ok || !info.success) throw new KnownKeyError(`${endpoint.origin} did not answer with its audit key (HTTP ${res.status}).`)
  // The fingerprint is computed here from the key, so it is the key's whatever the answer's fingerprint field says.
  const fingerprint = fingerprintOf(Buffer.from(info.data.publicKey, 'base64'))
  if (fingerprint !== info.data.fingerprint) throw new KnownKeyError(`${endpoint.origin} answered a fingerprint that is not its key's.`)
  return { fingerprint, from: `the server at ${endpoint.origin}` }
}
