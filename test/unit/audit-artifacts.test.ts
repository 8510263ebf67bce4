import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ArtifactName, type ArtifactUpload } from '#protocol'
import { ArtifactError, createArtifactStore, decodeArtifacts } from '../../server/lib/audit/artifacts'
import { makePng, REAL, tempDir } from './audit-fixtures'

let dir: string
let cleanup: () => void
beforeEach(() => ({ dir, cleanup } = tempDir()))
afterEach(() => cleanup())

const MB = 1024 * 1024
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')
const bytesOf = (base64: string) => Buffer.from(base64, 'base64')
const upload = (contentType: ArtifactUpload['contentType'], data: string, label: ArtifactUpload['label'] = 'before'): ArtifactUpload => ({
  label,
  contentType,
  data,
})
const refusal = (uploads: unknown[], maxBytes = MB) => {
  try {
    decodeArtifacts(uploads as ArtifactUpload[], maxBytes)
  } catch (error) {
    expect(error).toBeInstanceOf(ArtifactError)
    return error as ArtifactError
  }
  throw new Error('expected a refusal')
}

async function readAll(stream: AsyncIterable<Uint8Array>) {
  const parts: Uint8Array[] = []
  for await (const c of stream) parts.push(c)
  return Buffer.concat(parts)
}

describe('decodeArtifacts', () => {
  it('accepts real PNG, JPEG and WebP images, bare base64 or data URLs', () => {
    const decoded = decodeArtifacts(
      [
        upload('image/png', REAL.png),
        upload('image/jpeg', `data:image/jpeg;base64,${REAL.jpeg}`, 'after'),
        upload('image/webp', REAL.webp, 'screenshot'),
        upload('image/png', b64(makePng(64, 48, (i) => i * 7))),
      ],
      MB,
    )
    expect(decoded.map((d) => [d.label, d.contentType])).toEqual([
      ['before', 'image/png'],
      ['after', 'image/jpeg'],
      ['screenshot', 'image/webp'],
      ['before', 'image/png'],
    ])
    expect(decoded[1]!.bytes.equals(bytesOf(REAL.jpeg))).toBe(true)
    expect(decoded[1]!.sha256).toBe(createHash('sha256').update(bytesOf(REAL.jpeg)).digest('hex'))
  })

  it.each<[string, ArtifactUpload['contentType'], string]>([
    ['a PNG declared as JPEG', 'image/jpeg', REAL.png],
    ['a JPEG declared as WebP', 'image/webp', REAL.jpeg],
    ['a WebP declared as PNG', 'image/png', REAL.webp],
  ])('refuses %s', (_name, contentType, data) => {
    expect(refusal([upload(contentType, data)]).message).toMatch(/declared .* but is/)
  })

  it('refuses a data URL that names another type', () => {
    expect(refusal([upload('image/png', `data:image/jpeg;base64,${REAL.png}`)]).message).toMatch(/data URL/)
  })

  const png = bytesOf(REAL.png)
  const jpeg = bytesOf(REAL.jpeg)
  const webp = bytesOf(REAL.webp)
  it.each<[string, ArtifactUpload['contentType'], Uint8Array]>([
    ['HTML', 'image/png', Buffer.from('<html><script>alert(1)</script></html>')],
    ['SVG', 'image/png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['a GIF', 'image/png', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;')],
    ['a PNG signature followed by HTML', 'image/png', Buffer.concat([png.subarray(0, 8), Buffer.from('<html></html>'.repeat(5))])],
    ['a PNG cut before IEND', 'image/png', png.subarray(0, png.length - 12)],
    ['a PNG with HTML after IEND', 'image/png', Buffer.concat([png, Buffer.from('<script>alert(1)</script>')])],
    ['a JPEG without its end marker', 'image/jpeg', jpeg.subarray(0, jpeg.length - 2)],
    ['a JPEG start marker then text', 'image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('<html>')])],
    ['a WebP whose RIFF size lies', 'image/webp', Buffer.concat([webp, Buffer.alloc(4)])],
    ['a RIFF that is not WebP', 'image/webp', Buffer.concat([webp.subarray(0, 8), Buffer.from('WAVE'), webp.subarray(12)])],
  ])('refuses %s', (_name, contentType, bytes) => {
    expect(refusal([upload(contentType, b64(bytes))]).message).toMatch(/not a complete PNG, JPEG or WebP/)
  })

  it.each([
    ['characters outside base64', REAL.png.slice(0, 8) + '*' + REAL.png.slice(9)],
    ['a length that is not a multiple of 4', REAL.png.slice(0, -1)],
    ['whitespace', REAL.png.slice(0, 12) + '\n' + REAL.png.slice(12)],
    ['base64url', REAL.png.replace(/\+/g, '-').replace(/\//g, '_')],
  ])('refuses data with %s', (_name, data) => {
    expect(refusal([upload('image/png', data)]).message).toMatch(/base64/)
  })

  it('has a fixture that base64url would change', () => expect(REAL.png).toMatch(/[+/]/))

  it('refuses an image over the size limit, before decoding it', () => {
    const big = b64(makePng(300, 300, (i) => (i * 2654435761) >>> 24))
    const error = refusal([upload('image/png', big)], 100_000)
    expect(error.code).toBe('PAYLOAD_TOO_LARGE')
    expect(error.message).toMatch(/larger than 100000 bytes/)
    expect(decodeArtifacts([upload('image/png', big)], 300_000)).toHaveLength(1)
  })

  it('refuses uploads that do not fit the schema, naming which one', () => {
    expect(refusal([upload('image/png', REAL.png), { label: 'before', contentType: 'image/gif', data: REAL.png }]).message).toMatch(/^Screenshot 2 /)
    expect(refusal([{ label: 'nope', contentType: 'image/png', data: REAL.png }]).message).toMatch(/not a valid upload/)
  })

  it('never echoes the upload back in its message', () => {
    const message = refusal([upload('image/png', b64(Buffer.from('<html>secret-token-123</html>')))]).message
    expect(message).not.toContain('secret')
  })
})

describe('artifact store', () => {
  const decoded = () =>
    decodeArtifacts([upload('image/png', REAL.png, 'before'), upload('image/jpeg', REAL.jpeg, 'after'), upload('image/webp', REAL.webp, 'screenshot')], MB)

  it('writes files under server-made names and returns their refs', async () => {
    const store = createArtifactStore({ dir })
    const refs = await store.write('task-1', decoded(), '0003')
    expect(refs.map((r) => r.name)).toEqual([
      expect.stringMatching(/^0003-before-[0-9a-z]{10}\.png$/),
      expect.stringMatching(/^0003-after-[0-9a-z]{10}\.jpg$/),
      expect.stringMatching(/^0003-screenshot-[0-9a-z]{10}\.webp$/),
    ])
    for (const [i, ref] of refs.entries()) {
      expect(ArtifactName.safeParse(ref.name).success).toBe(true)
      const onDisk = readFileSync(join(dir, 'task-1', 'artifacts', ref.name))
      expect(onDisk.equals(decoded()[i]!.bytes)).toBe(true)
      expect(ref).toMatchObject({ bytes: onDisk.length, sha256: createHash('sha256').update(onDisk).digest('hex') })
    }
    expect(readdirSync(join(dir, 'task-1', 'artifacts')).sort()).toEqual(refs.map((r) => r.name).sort()) // no temp files left
    expect((await store.list('task-1')).map((a) => a.name)).toEqual(refs.map((r) => r.name).sort())
    expect(await store.list('no-such-task')).toEqual([])
  })

  it('opens a stored artifact as a stream with its type and size', async () => {
    const store = createArtifactStore({ dir, fsync: false })
    const [ref] = await store.write('t', decoded().slice(1, 2), 'p')
    const opened = await store.open('t', ref!.name)
    expect(opened).toMatchObject({ name: ref!.name, contentType: 'image/jpeg', bytes: ref!.bytes })
    expect((await readAll(opened!.stream)).equals(bytesOf(REAL.jpeg))).toBe(true)
    expect(await store.open('t', '0001-before-aaaaaaaaaa.png')).toBeNull()
    expect(await store.open('other', ref!.name)).toBeNull()
  })

  it.each([
    '../events.jsonl',
    '..%2Fevents.jsonl',
    '%2e%2e%2fevents.jsonl',
    '..%252f..%252fx.png',
    'a/b.png',
    'a\\b.png',
    '../../etc/passwd',
    '/etc/passwd',
    'C:\\x.png',
    '..png',
    '.hidden.png',
    '.0001-before-abc.png.tmp',
    'x..png',
    'x.png\0.png',
    'x.png%00',
    'x.png/',
    'x.png.',
    ' x.png',
    'x.html',
    'x.PNG',
    'x.svg',
    'events.jsonl',
    '\u2215etc.png',
    'x\u0000.png',
    '',
    '.',
    '..',
  ])('refuses the artifact name %j', async (name) => {
    const store = createArtifactStore({ dir })
    await store.write('t', decoded(), 'p')
    await expect(store.open('t', name)).rejects.toBeInstanceOf(ArtifactError)
  })

  it('refuses a symlink planted in the folder that leads outside it', async () => {
    const store = createArtifactStore({ dir })
    await store.write('t', decoded(), 'p')
    writeFileSync(join(dir, 'secret.png'), 'outside')
    symlinkSync(join(dir, 'secret.png'), join(dir, 't', 'artifacts', 'p-before-linklinkli.png'))
    await expect(store.open('t', 'p-before-linklinkli.png')).rejects.toBeInstanceOf(ArtifactError)
    expect((await store.list('t')).map((a) => a.name)).not.toContain('p-before-linklinkli.png')
  })

  it('refuses a bad task id or prefix', async () => {
    const store = createArtifactStore({ dir })
    await expect(store.write('../t', decoded(), 'p')).rejects.toThrow()
    await expect(store.write('t', decoded(), '../p')).rejects.toBeInstanceOf(ArtifactError)
    await expect(store.open('../t', 'p-before-aaaaaaaaaa.png')).rejects.toThrow()
    mkdirSync(join(dir, 'x'))
    await expect(store.list('..')).rejects.toThrow()
  })
})
