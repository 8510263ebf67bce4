/**
 * Reads what a browser sends on a WebSocket (RFC 6455): frames from a client are always masked. Each complete data
 * message (text or binary, its fragments joined) is handed on; ping, pong and close are the protocol's own.
 */
export interface ClientMessage {
  binary: boolean
  data: Buffer
}

export function createFrameReader(onMessage: (message: ClientMessage) => void, onClose: () => void) {
  let pending = Buffer.alloc(0)
  let parts: Buffer[] = []
  let binary = false
  return function read(chunk: Buffer) {
    pending = Buffer.concat([pending, chunk])
    for (;;) {
      if (pending.length < 2) return
      const fin = (pending[0]! & 0x80) !== 0
      const opcode = pending[0]! & 0x0f
      const masked = (pending[1]! & 0x80) !== 0
      let length = pending[1]! & 0x7f
      let at = 2
      if (length === 126) {
        if (pending.length < 4) return
        length = pending.readUInt16BE(2)
        at = 4
      } else if (length === 127) {
        if (pending.length < 10) return
        length = Number(pending.readBigUInt64BE(2))
        at = 10
      }
      const mask = masked ? pending.subarray(at, at + 4) : null
      if (masked) at += 4
      if (pending.length < at + length) return
      const payload = Buffer.from(pending.subarray(at, at + length))
      if (mask) for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!
      pending = pending.subarray(at + length)
      if (opcode === 0x8) return onClose()
      if (opcode === 0x9 || opcode === 0xa) continue
      if (opcode === 0x1 || opcode === 0x2) {
        parts = []
        binary = opcode === 0x2
      }
      parts.push(payload)
      if (fin) {
        onMessage({ binary, data: Buffer.concat(parts) })
        parts = []
      }
    }
  }
}
