import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto'
import type { AuditHeadSignature, AuditSigner } from '#protocol'
import { canonicalJson } from './chain'

/** What signs: the server's key (signing-key.ts), or a test's. */
export interface Signer extends AuditSigner {
  /** The Ed25519 signature of `text` (UTF-8), base64. */
  sign(text: string): string
}

// Each kind of signed text starts with its own purpose, so a head's signature can never pass for a manifest's.
const HEAD_PURPOSE = 'tandem.audit.head.v1'
const MANIFEST_PURPOSE = 'tandem.audit.manifest.v1'

/** `ed25519:` and the first 16 bytes of the SHA-256 of the raw public key, in hex (protocol/audit.ts KeyFingerprint). */
export const fingerprintOf = (rawPublicKey: Uint8Array): string =>
  `ed25519:${createHash('sha256').update(rawPublicKey).digest('hex').slice(0, 32)}`

/** The 32 raw bytes of an Ed25519 public key. */
export const rawPublicKey = (key: KeyObject): Buffer => Buffer.from(key.export({ format: 'jwk' }).x!, 'base64url')

export const publicKeyFromRaw = (raw: Uint8Array): KeyObject =>
  createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw).toString('base64url') }, format: 'jwk' })

/** The text a task's head signature signs: every field of signature.json but the signature. */
export function headSignedText(fields: Omit<AuditHeadSignature, 'signature'>): string {
  const { algorithm, key, publicKey, taskId, seq, hash, signedAt } = fields
  return `${HEAD_PURPOSE}\n${canonicalJson({ algorithm, key, publicKey, taskId, seq, hash, signedAt })}`
}

/**
 * The text an export's signature signs: manifest.json as it parsed, every field of it (even ones this version does
 * not know) but `signature.signature`, in canonical JSON. Any change to the manifest changes the text.
 */
export function manifestSignedText(manifest: Record<string, unknown>): string {
  const { signature, ...rest } = manifest
  const { signature: _value, ...signer } = (signature ?? {}) as Record<string, unknown>
  return `${MANIFEST_PURPOSE}\n${canonicalJson({ ...rest, signature: signer })}`
}

export function signHead(signer: Signer, head: { taskId: string; seq: number; hash: string }, signedAt: Date): AuditHeadSignature {
  const { algorithm, key, publicKey } = signer
  const fields = { algorithm, key, publicKey, taskId: head.taskId, seq: head.seq, hash: head.hash, signedAt: signedAt.toISOString() }
  return { ...fields, signature: signer.sign(headSignedText(fields)) }
}

/** Adds the signature to a manifest that has every other field it will carry. */
export function signManifest<M extends Record<string, unknown>>(signer: Signer, manifest: M): M & { signature: AuditSigner & { signature: string } } {
  const { algorithm, key, publicKey } = signer
  const unsigned = { ...manifest, signature: { algorithm, key, publicKey } }
  return { ...unsigned, signature: { algorithm, key, publicKey, signature: signer.sign(manifestSignedText(unsigned)) } }
}

export type SignatureProblem = 'fingerprint' | 'signature'

/**
 * Whether `signature` over `text` was made with the key `publicKey` (base64 raw) and that `key` is that key's
 * fingerprint. Says nothing about whose key it is: that is for the caller to compare with a known fingerprint.
 */
export function checkSignature(signer: AuditSigner, text: string, signature: string): SignatureProblem | null {
  const raw = Buffer.from(signer.publicKey, 'base64')
  if (fingerprintOf(raw) !== signer.key) return 'fingerprint'
  try {
    return verify(null, Buffer.from(text, 'utf8'), publicKeyFromRaw(raw), Buffer.from(signature, 'base64')) ? null : 'signature'
  } catch {
    return 'signature' // 32 bytes that are no point of the curve: nothing can verify under them
  }
}
