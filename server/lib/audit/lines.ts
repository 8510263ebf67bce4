const NEWLINE = 0x0a

/** One piece of a line-oriented stream: a complete line, the unfinished tail after the last newline, or a line too long to hold. */
export type LinePiece = { kind: 'line'; text: string } | { kind: 'tail'; text: string } | { kind: 'too-long' }

/**
 * The lines of a byte stream, pulled one at a time, holding at most one line in memory. Ends with a `tail`
 * piece when bytes follow the last newline, and stops at a `too-long` piece. Splitting bytes at 0x0A is safe
 * for UTF-8: that byte never occurs inside a multi-byte character.
 */
export async function* splitLines(chunks: AsyncIterable<Uint8Array>, maxLineBytes: number): AsyncGenerator<LinePiece> {
  const decoder = new TextDecoder('utf-8')
  let pending: Uint8Array[] = []
  let pendingBytes = 0
  const take = (last: Uint8Array) => {
    const text = decoder.decode(pending.length ? Buffer.concat([...pending, last]) : last)
    pending = []
    pendingBytes = 0
    return text
  }
  for await (const chunk of chunks) {
    let start = 0
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start)
      const end = nl === -1 ? chunk.length : nl
      if (pendingBytes + end - start > maxLineBytes) {
        yield { kind: 'too-long' }
        return
      }
      if (nl === -1) {
        if (end > start) {
          // Copy: a stream may reuse its buffer for the next chunk.
          pending.push(Uint8Array.prototype.slice.call(chunk, start, end))
          pendingBytes += end - start
        }
        break
      }
      yield { kind: 'line', text: take(chunk.subarray(start, nl)) }
      start = nl + 1
    }
  }
  if (pendingBytes) yield { kind: 'tail', text: take(new Uint8Array(0)) }
}
