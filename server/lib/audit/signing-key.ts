import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fingerprintOf, rawPublicKey, type Signer } from './signature'

/** The server's audit signing key, kept in its data dir. */
export interface AuditKey extends Signer {
  /** The private key (PKCS#8 PEM, owner-only) and the public key beside it (SPKI PEM). */
  privateFile: string
  publicFile: string
  /** Made by this call: the first start with this data dir. */
  created: boolean
}

export const PRIVATE_KEY_FILE = 'audit-signing-key.pem'
export const PUBLIC_KEY_FILE = 'audit-signing-key.pub.pem'

// Another server that created the file may not have written its bytes yet: wait this long for them.
const HALF_WRITTEN_TRIES = 50
const HALF_WRITTEN_WAIT_MS = 20

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

function readPrivateKey(file: string): KeyObject | null {
  let pem: string
  try {
    pem = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  for (let tries = 0; ; tries++) {
    try {
      const key = createPrivateKey(pem)
      if (key.asymmetricKeyType === 'ed25519') return key
    } catch {}
    if (tries >= HALF_WRITTEN_TRIES) {
      throw new Error(
        `${file} is not an Ed25519 private key in PEM. Move it aside to make a new key at the next start ` +
          '(exports it signed can still be checked against its fingerprint).',
      )
    }
    sleep(HALF_WRITTEN_WAIT_MS)
    pem = readFileSync(file, 'utf8')
  }
}

/** The key in the data dir, made on first start. */
function privateKeyIn(file: string): { key: KeyObject; created: boolean } {
  const existing = readPrivateKey(file)
  if (existing) return { key: existing, created: false }
  const { privateKey } = generateKeyPairSync('ed25519')
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string
  // wx: two servers starting at once must not each make a key and sign with different ones.
  try {
    writeFileSync(file, pem, { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { key: readPrivateKey(file)!, created: false }
    throw error
  }
  return { key: privateKey, created: true }
}

/** The public key beside the private one, for people and `npm run audit:verify --key`; always the private key's own. */
function writePublicKey(file: string, pem: string) {
  try {
    if (readFileSync(file, 'utf8') === pem) return
  } catch {}
  const temp = `${file}.${process.pid}.tmp`
  writeFileSync(temp, pem, { mode: 0o644 })
  renameSync(temp, file)
}

/** The data dir's audit signing key (Ed25519), made there on first start. */
export function loadOrCreateAuditKey(dataDir: string): AuditKey {
  mkdirSync(dataDir, { recursive: true })
  const privateFile = join(dataDir, PRIVATE_KEY_FILE)
  const publicFile = join(dataDir, PUBLIC_KEY_FILE)
  const { key, created } = privateKeyIn(privateFile)
  const publicKey = createPublicKey(key)
  writePublicKey(publicFile, publicKey.export({ format: 'pem', type: 'spki' }) as string)
  const raw = rawPublicKey(publicKey)
  return {
    algorithm: 'ed25519',
    key: fingerprintOf(raw),
    publicKey: raw.toString('base64'),
    sign: (text) => sign(null, Buffer.from(text, 'utf8'), key).toString('base64'),
    privateFile,
    publicFile,
    created,
  }
}
