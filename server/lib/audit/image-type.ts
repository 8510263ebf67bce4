export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp'

export const IMAGE_EXTENSIONS: Record<ImageType, 'png' | 'jpg' | 'webp'> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
}

export const CONTENT_TYPE_OF_EXTENSION: Record<string, ImageType> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' }

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n))
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!
const u32le = (b: Uint8Array, at: number) => b[at]! + (b[at + 1]! << 8) + (b[at + 2]! << 16) + ((b[at + 3]! << 24) >>> 0)
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) + b[at + 1]!

/** Signature, IHDR first, then whole chunks up to an IEND that ends the file. */
function isPng(b: Uint8Array): boolean {
  if (b.length < 8 + 25 + 12 || !PNG_SIGNATURE.every((v, i) => b[i] === v)) return false
  if (u32be(b, 8) !== 13 || ascii(b, 12, 4) !== 'IHDR' || u32be(b, 16) === 0 || u32be(b, 20) === 0) return false
  let at = 8
  let sawData = false
  while (at + 12 <= b.length) {
    const length = u32be(b, at)
    const type = ascii(b, at + 4, 4)
    if (!/^[A-Za-z]{4}$/.test(type) || at + 12 + length > b.length) return false
    if (type === 'IDAT') sawData = true
    at += 12 + length
    if (type === 'IEND') return sawData && length === 0 && at === b.length
  }
  return false
}

/** SOI, segments with a frame header and a scan, entropy-coded data, and an EOI that ends the file. */
function isJpeg(b: Uint8Array): boolean {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return false
  let at = 2
  let sawFrame = false
  let sawScan = false
  while (at + 1 < b.length) {
    if (b[at] !== 0xff) return false
    while (b[at] === 0xff && at < b.length) at++ // fill bytes
    const marker = b[at++]!
    if (marker === 0xd9) return sawFrame && sawScan && at === b.length
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue
    if (marker === 0x00 || at + 2 > b.length) return false
    const length = u16be(b, at)
    if (length < 2 || at + length > b.length) return false
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) sawFrame = true
    at += length
    if (marker === 0xda) {
      sawScan = true
      // Entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart marker.
      while (at + 1 < b.length && !(b[at] === 0xff && b[at + 1] !== 0x00 && (b[at + 1]! < 0xd0 || b[at + 1]! > 0xd7))) at++
    }
  }
  return false
}

/** RIFF header whose size matches the file, then whole chunks, the first an image chunk (VP8, VP8L or VP8X). */
function isWebp(b: Uint8Array): boolean {
  if (b.length < 20 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP' || u32le(b, 4) + 8 !== b.length) return false
  if (!['VP8 ', 'VP8L', 'VP8X'].includes(ascii(b, 12, 4))) return false
  let at = 12
  let sawImage = false
  while (at + 8 <= b.length) {
    const type = ascii(b, at, 4)
    const size = u32le(b, at + 4)
    if (!/^[A-Z0-9 ]{4}$/.test(type) || at + 8 + size > b.length) return false
    if (type === 'VP8 ' || type === 'VP8L' || type === 'ANMF') sawImage = true
    at += 8 + size + (size & 1)
  }
  return sawImage && at === b.length
}

/** What the bytes really are, judged by their structure rather than by what the uploader said; null if none of ours. */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (isPng(bytes)) return 'image/png'
  if (isJpeg(bytes)) return 'image/jpeg'
  if (isWebp(bytes)) return 'image/webp'
  return null
}
