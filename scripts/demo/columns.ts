import { eastAsianWidth } from 'get-east-asian-width'

// Marks drawn over the letter before them and invisible format characters (zero-width joiner, BOM) take no column.
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g

/** How many terminal columns `text` takes: a Chinese character or a fullwidth sign two, a combining mark none. */
export function displayWidth(text: string): number {
  let width = 0
  for (const ch of text.replace(ANSI, '')) {
    const point = ch.codePointAt(0)!
    if (point < 0x20 || (point >= 0x7f && point < 0xa0) || ZERO_WIDTH.test(ch)) continue
    width += eastAsianWidth(point)
  }
  return width
}

/** `text` followed by spaces up to `width` columns: String#padEnd counts a Chinese character as one. */
export const padToWidth = (text: string, width: number): string => text + ' '.repeat(Math.max(0, width - displayWidth(text)))

/** Label and value rows with every value starting at the same column, however wide the labels' characters are. */
export function columns(rows: [label: string, value: string][], indent = '  ', gap = 2): string[] {
  const width = Math.max(0, ...rows.map(([label]) => displayWidth(label))) + gap
  return rows.map(([label, value]) => `${indent}${padToWidth(label, width)}${value}`)
}
