/**
 * Draws the extension's icon, two overlapping rings — two riders on one bicycle, "tandem" — as PNGs of the sizes
 * Chrome asks for, into extension/public/icon/ (committed; run again only to change the mark).
 * Usage: npx tsx scripts/make-icons.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'

const SIZES = [16, 32, 48, 128]
const OUT = join('extension', 'public', 'icon')
const BLUE: [number, number, number] = [0x24, 0x58, 0xd6]
const GREEN: [number, number, number] = [0x1e, 0x7f, 0x4f]

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type: string, data: Buffer) {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'ascii')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}
function png(size: number, rgba: Uint8Array) {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(size, 0)
  ihdr.writeUInt32BE(size, 4)
  ihdr.set([8, 6, 0, 0, 0], 8)
  const rows = Buffer.alloc(size * (size * 4 + 1))
  for (let y = 0; y < size; y++) rows.set(rgba.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1)
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))])
}

/** The colour at a point of the unit square: the right ring over the left one, or nothing. */
function at(x: number, y: number): [number, number, number] | null {
  const ring = (cx: number) => Math.abs(Math.hypot(x - cx, y - 0.5) - 0.26) < 0.075
  if (ring(0.64)) return GREEN
  if (ring(0.36)) return BLUE
  return null
}

function draw(size: number) {
  const rgba = new Uint8Array(size * size * 4)
  const n = 4 // samples per side: smooth edges at 16 px
  for (let py = 0; py < size; py++)
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0
      for (let sy = 0; sy < n; sy++)
        for (let sx = 0; sx < n; sx++) {
          const c = at((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size)
          if (!c) continue
          r += c[0]
          g += c[1]
          b += c[2]
          a++
        }
      const i = (py * size + px) * 4
      if (a) rgba.set([Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.round((255 * a) / (n * n))], i)
    }
  return png(size, rgba)
}

mkdirSync(OUT, { recursive: true })
for (const size of SIZES) writeFileSync(join(OUT, `${size}.png`), draw(size))
console.log(`icons written to ${OUT}: ${SIZES.join(', ')} px`)
