import { z } from 'zod'

/** A task id as the audit accepts it: it names a folder, so nothing that could climb out of one. */
export const AuditTaskId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'letters, digits, _ and - only (1–128)')

/** sha256, lowercase hex. */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex sha256')

/** prevHash of the first event of every task. */
export const GENESIS_HASH = '0'.repeat(64)

/**
 * An artifact file name as the server generates it (`<prefix>-<label>-<id>.<ext>`): one plain name, no
 * separators, dots only before the extension, no percent-encoding, so it can never leave its folder.
 */
export const ArtifactName = z
  .string()
  .max(255)
  .regex(/^[A-Za-z0-9_-]{1,240}\.(png|jpg|webp)$/, 'a generated artifact file name')

/**
 * One line of `audit/<taskId>/events.jsonl`. `seq` counts from 1 and equals the line number; `hash` is the
 * sha256 of the event's canonical JSON without `hash`, and `prevHash` is the previous line's `hash`.
 */
export const AuditEvent = z.strictObject({
  seq: z.number().int().min(1),
  ts: z.iso.datetime(),
  taskId: AuditTaskId,
  type: z.string().min(1).max(128),
  actionId: z.string().min(1).max(128).optional(),
  data: z.record(z.string(), z.unknown()),
  prevHash: Sha256Hex,
  hash: Sha256Hex,
})
export type AuditEvent = z.infer<typeof AuditEvent>

/** What a caller asks the log to record; the log adds seq, ts, taskId and the hashes. */
export const AuditEventInput = z.strictObject({
  type: z.string().min(1).max(128),
  actionId: z.string().min(1).max(128).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
})
export type AuditEventInput = z.input<typeof AuditEventInput>

export const ChainHead = z.object({ seq: z.number().int().min(1), hash: Sha256Hex })
export type ChainHead = z.infer<typeof ChainHead>

/** The verdict on one events.jsonl: `problem.line` is 1-based and names the first line that is wrong. */
export const VerifyResult = z.object({
  ok: z.boolean(),
  count: z.number().int().min(0),
  head: ChainHead.nullable(),
  problem: z.object({ line: z.number().int().min(1), reason: z.string() }).optional(),
})
export type VerifyResult = z.infer<typeof VerifyResult>

export const AuditManifestArtifact = z.object({ name: ArtifactName, bytes: z.number().int().min(0), sha256: Sha256Hex })
export type AuditManifestArtifact = z.infer<typeof AuditManifestArtifact>

/**
 * The server's audit signing key as people compare it: `ed25519:` and the first 16 bytes (128 bits) of the
 * SHA-256 of the raw 32-byte Ed25519 public key, in lowercase hex.
 */
export const KeyFingerprint = z.string().regex(/^ed25519:[0-9a-f]{32}$/, 'ed25519: and 32 lowercase hex digits')

/** An Ed25519 public key: its 32 raw bytes in base64. */
export const Ed25519PublicKey = z.string().regex(/^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/, 'the 32 bytes of an Ed25519 public key in base64')

/** An Ed25519 signature: its 64 bytes in base64. */
export const Ed25519Signature = z.string().regex(/^[A-Za-z0-9+/]{85}[AQgw]==$/, 'the 64 bytes of an Ed25519 signature in base64')

/** Who signed: the key's fingerprint and the public key it stands for (a verifier recomputes one from the other). */
export const AuditSigner = z.object({ algorithm: z.literal('ed25519'), key: KeyFingerprint, publicKey: Ed25519PublicKey })
export type AuditSigner = z.infer<typeof AuditSigner>

/**
 * `audit/<taskId>/signature.json`, written when the task finishes: the server's signature over the chain's head
 * then. `signature` signs every other field (server/lib/audit/signature.ts says how).
 */
export const AuditHeadSignature = AuditSigner.extend({
  taskId: AuditTaskId,
  seq: z.number().int().min(1),
  hash: Sha256Hex,
  signedAt: z.iso.datetime(),
  signature: Ed25519Signature,
})
export type AuditHeadSignature = z.infer<typeof AuditHeadSignature>

/** One file of an export zip, as it was written into it. */
export const AuditManifestFile = z.object({ name: z.string().min(1).max(1024), bytes: z.number().int().min(0), sha256: Sha256Hex })
export type AuditManifestFile = z.infer<typeof AuditManifestFile>

/** The export's signature: `signature` signs the whole manifest but itself. */
export const AuditManifestSignature = AuditSigner.extend({ signature: Ed25519Signature })
export type AuditManifestSignature = z.infer<typeof AuditManifestSignature>

/** `manifest.json` of an exported audit zip: what the zip must contain, so a verifier can tell what went missing. */
export const AuditManifest = z.object({
  taskId: AuditTaskId,
  exportedAt: z.iso.datetime(),
  /** Number of lines in events.jsonl. */
  events: z.number().int().min(0),
  head: ChainHead.nullable(),
  artifacts: z.array(AuditManifestArtifact),
  /** Every other file of the zip (events.jsonl, artifacts, replay.html…), in the order it was written. */
  files: z.array(AuditManifestFile).optional(),
  /** Absent from exports made before they were signed, which a verifier fails. */
  signature: AuditManifestSignature.optional(),
})
export type AuditManifest = z.infer<typeof AuditManifest>

/** `GET /api/audit/:taskId` */
export const AuditTaskParams = z.strictObject({ taskId: AuditTaskId })
export const AuditArtifactParams = z.strictObject({ taskId: AuditTaskId, name: ArtifactName })
/** `GET /api/audit/key`: the key this server signs audits with. */
export const AuditKeyInfo = z.object({ algorithm: z.literal('ed25519'), fingerprint: KeyFingerprint, publicKey: Ed25519PublicKey })
export type AuditKeyInfo = z.infer<typeof AuditKeyInfo>
export const AuditView = z.object({ taskId: AuditTaskId, events: z.array(AuditEvent), verified: VerifyResult })
export type AuditView = z.infer<typeof AuditView>
