import { execFile } from 'node:child_process'
import { createHash, createPublicKey } from 'node:crypto'
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AuditHeadSignature } from '#protocol'
import { HEAD_SIGNATURE_FILE, readHeadSignature, signingFinishedTasks } from '../../server/lib/audit/head-signature'
import { createAuditLog } from '../../server/lib/audit/log'
import { checkSignature, headSignedText } from '../../server/lib/audit/signature'
import { loadOrCreateAuditKey, PRIVATE_KEY_FILE, PUBLIC_KEY_FILE } from '../../server/lib/audit/signing-key'
import { tempDir } from './audit-fixtures'

let dir: string
let cleanup: () => void
beforeEach(() => ({ dir, cleanup } = tempDir('tandem-key-')))
afterEach(() => cleanup())

/** Makes the key in `dataDir` from a process of its own, as a starting server would. */
function keyFromAnotherProcess(dataDir: string): Promise<string> {
  const code = `import { loadOrCreateAuditKey } from ${JSON.stringify(resolve('server/lib/audit/signing-key.ts'))}; console.log(loadOrCreateAuditKey(${JSON.stringify(dataDir)}).key)`
  return new Promise((done, fail) =>
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], (error, stdout) => (error ? fail(error) : done(stdout.trim()))),
  )
}

describe('the audit signing key', () => {
  it('is made once per data dir, owner-only, with its public key beside it', () => {
    const first = loadOrCreateAuditKey(join(dir, 'data'))
    const again = loadOrCreateAuditKey(join(dir, 'data'))
    expect(first.created).toBe(true)
    expect(again.created).toBe(false)
    expect(again.key).toBe(first.key)
    expect(again.publicKey).toBe(first.publicKey)
    expect(first.key).toMatch(/^ed25519:[0-9a-f]{32}$/)
    expect(statSync(join(dir, 'data', PRIVATE_KEY_FILE)).mode & 0o777).toBe(0o600)

    // The fingerprint is the documented one: SHA-256 of the raw public key, its first 16 bytes in hex.
    const raw = Buffer.from(first.publicKey, 'base64')
    expect(raw).toHaveLength(32)
    expect(first.key).toBe(`ed25519:${createHash('sha256').update(raw).digest('hex').slice(0, 32)}`)
    const beside = createPublicKey(readFileSync(join(dir, 'data', PUBLIC_KEY_FILE), 'utf8')).export({ format: 'jwk' }).x
    expect(Buffer.from(beside!, 'base64url').equals(raw)).toBe(true)
  })

  it('is one key when servers start at once in one data dir', async () => {
    const dataDir = join(dir, 'shared')
    const keys = await Promise.all([keyFromAnotherProcess(dataDir), keyFromAnotherProcess(dataDir), keyFromAnotherProcess(dataDir)])
    expect(new Set(keys).size).toBe(1)
    expect(loadOrCreateAuditKey(dataDir).key).toBe(keys[0])
  }, 60_000)

  it('refuses a private key file that is not one, rather than signing with another', () => {
    const dataDir = join(dir, 'broken')
    loadOrCreateAuditKey(dataDir)
    writeFileSync(join(dataDir, PRIVATE_KEY_FILE), 'not a key')
    expect(() => loadOrCreateAuditKey(dataDir)).toThrow(/is not an Ed25519 private key/)
  }, 10_000)
})

describe('a finished task is signed', () => {
  it('writes signature.json over the head when task.finished is appended, and not before', async () => {
    const key = loadOrCreateAuditKey(join(dir, 'data'))
    const log = signingFinishedTasks(createAuditLog({ dir: join(dir, 'audit'), fsync: false }), { signer: () => key, fsync: false })
    await log.append('t1', { type: 'task.created', data: { goal: 'x' } })
    expect(existsSync(join(log.taskDir('t1'), HEAD_SIGNATURE_FILE))).toBe(false)
    const [, finished] = await log.appendMany('t1', [
      { type: 'task.status', data: { from: 'RUNNING', to: 'SUCCEEDED' } },
      { type: 'task.finished', data: { status: 'SUCCEEDED' } },
    ])
    const signature = AuditHeadSignature.parse(JSON.parse(readFileSync(join(log.taskDir('t1'), HEAD_SIGNATURE_FILE), 'utf8')))
    expect(signature).toMatchObject({ taskId: 't1', seq: 3, hash: finished!.hash, key: key.key, publicKey: key.publicKey })
    expect(checkSignature(signature, headSignedText(signature), signature.signature)).toBeNull()
    expect(checkSignature(signature, headSignedText({ ...signature, seq: 2 }), signature.signature)).toBe('signature')
    expect(statSync(join(log.taskDir('t1'), HEAD_SIGNATURE_FILE)).mode & 0o777).toBe(0o600)

    // Events after the end are not signed by themselves; the task's next end signs them.
    await log.append('t1', { type: 'observation', data: {} })
    expect((await readHeadSignature(log.taskDir('t1')))?.seq).toBe(3)
    await log.append('t1', { type: 'task.finished', data: { status: 'SUCCEEDED' } })
    expect((await readHeadSignature(log.taskDir('t1')))?.seq).toBe(5)
  })

  it('keeps the event when signing fails: the append is on disk and resolves', async () => {
    const log = signingFinishedTasks(createAuditLog({ dir: join(dir, 'audit'), fsync: false }), {
      signer: () => {
        throw new Error('no key')
      },
      fsync: false,
    })
    const errors: unknown[] = []
    const original = console.error
    console.error = (...args: unknown[]) => void errors.push(args)
    try {
      await expect(log.append('t2', { type: 'task.finished', data: { status: 'FAILED' } })).resolves.toMatchObject({ seq: 1 })
    } finally {
      console.error = original
    }
    expect(errors).toHaveLength(1)
    expect(await log.read('t2')).toHaveLength(1)
  })
})
