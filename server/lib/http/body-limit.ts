import type { IncomingMessage } from 'node:http'

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`body larger than ${limit} bytes`)
  }
}

/** Reads a request body, giving up as soon as it passes `limit` bytes (Content-Length is not trusted). */
export function readLimitedBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number.parseInt(req.headers['content-length'] ?? '', 10)
  if (declared > limit) return Promise.reject(new BodyTooLargeError(limit))
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        req.off('data', onData)
        req.resume() // drain the rest so the 413 can still be sent on this connection
        reject(new BodyTooLargeError(limit))
        return
      }
      chunks.push(chunk)
    }
    req.on('data', onData)
    req.once('end', () => resolve(Buffer.concat(chunks)))
    req.once('error', reject)
  })
}
