import type { AuditHeadSignature, AuditManifestSignature, AuditSigner, VerifyResult } from '#protocol'
import { checkSignature, headSignedText, manifestSignedText } from './signature'

/** A key the person knows to be their server's: named with --key, or asked of the server with --server. */
export interface KnownKey {
  fingerprint: string
  /** Where it came from, as the verdict names it ("--key", "the server at http://…"). */
  from: string
}

/** What a check found of the signature: `note` goes into an OK verdict, `problem` is the whole FAIL sentence. */
export type SignatureVerdict = { ok: true; note: string; signedBy?: string } | { ok: false; problem: string }

const short = (hash: string) => hash.slice(0, 12)

/** A valid signature still says nothing of who made it until its key is compared with one the person knows. */
function judgeKey(signer: AuditSigner, known: KnownKey | undefined): SignatureVerdict {
  if (!known) {
    return {
      ok: true,
      signedBy: signer.key,
      note: `signed by ${signer.key}, a key not checked against a known one, so who signed is unknown (pass --key <fingerprint> or --server <url>)`,
    }
  }
  if (known.fingerprint !== signer.key) {
    return { ok: false, problem: `it was signed with key ${signer.key}, not with the expected ${known.fingerprint} (from ${known.from})` }
  }
  return { ok: true, signedBy: signer.key, note: `signed by ${signer.key}, the key from ${known.from}` }
}

/** The signature of an export's manifest.json, over the manifest exactly as it parsed (`raw`). */
export function judgeManifestSignature(raw: Record<string, unknown>, signature: AuditManifestSignature, known?: KnownKey): SignatureVerdict {
  const problem = checkSignature(signature, manifestSignedText(raw), signature.signature)
  if (problem === 'fingerprint') return { ok: false, problem: `the manifest's signature names key ${signature.key} but carries another public key (it was edited)` }
  if (problem === 'signature') {
    return {
      ok: false,
      problem: 'the signature does not match manifest.json: the manifest (its chain head, its file hashes or another field) was changed after it was signed',
    }
  }
  return judgeKey(signature, known)
}

/** What the chain held at the signed head's place, gathered while the chain was verified. */
export interface SignedPlace {
  taskId?: string
  chain: VerifyResult
  /** The hash of the event whose seq the signature names; absent when the chain is shorter. */
  hashAtSeq?: string
}

/** A task folder's signature.json against the chain beside it. */
export function judgeHeadSignature(signature: AuditHeadSignature, place: SignedPlace, known?: KnownKey): SignatureVerdict {
  const fail = (problem: string): SignatureVerdict => ({ ok: false, problem })
  const problem = checkSignature(signature, headSignedText(signature), signature.signature)
  if (problem === 'fingerprint') return fail(`signature.json names key ${signature.key} but carries another public key (it was edited)`)
  if (problem === 'signature') return fail('the signature in signature.json does not verify: the file was edited after it was signed')
  if (place.taskId !== undefined && signature.taskId !== place.taskId) return fail(`signature.json is for task ${signature.taskId}, the events for ${place.taskId}`)
  if (place.hashAtSeq === undefined) {
    return fail(`the signature is for head #${signature.seq}, but the chain has only ${place.chain.count} events: events were removed after it was signed`)
  }
  if (place.hashAtSeq !== signature.hash) {
    return fail(
      `the signature does not match the chain: it signed #${signature.seq} ${short(signature.hash)}, the chain has ${short(place.hashAtSeq)} there, ` +
        'so the events were rewritten (and re-hashed) after they were signed',
    )
  }
  const judged = judgeKey(signature, known)
  const later = place.chain.count - signature.seq
  if (!judged.ok || later === 0) return judged
  return { ...judged, note: `${judged.note}; the ${later} event${later === 1 ? '' : 's'} after #${signature.seq} are not covered by it` }
}

/** No signature to check: fine for a log nobody asked to trust, a failure when the person named a key. */
export function judgeUnsigned(what: string, known?: KnownKey): SignatureVerdict {
  if (known) return { ok: false, problem: `${what}, so nothing can be checked against the key from ${known.from}` }
  return { ok: true, note: `${what}: only the chain was checked, which whoever can edit the file can recompute` }
}
