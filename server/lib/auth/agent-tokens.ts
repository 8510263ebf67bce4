import { createHash, randomBytes } from 'node:crypto'
import type { Storage } from 'unstorage'
import { z } from 'zod'
import { AgentTokenView, type CreatedToken } from '#protocol'

/** An agent token as stored: its hash and what the owner named it, never the token. */
const StoredToken = AgentTokenView.extend({ hash: z.string() })
type StoredToken = z.infer<typeof StoredToken>

export interface AgentTokens {
  /** Makes a token for an agent; the token is in this answer only. */
  create(input: { name: string; scope: AgentTokenView['scope'] }): Promise<CreatedToken>
  /** The token's record when `token` is a live agent token, else null; its last use is noted now and then. */
  verify(token: string): Promise<AgentTokenView | null>
  list(): Promise<AgentTokenView[]>
  /** Revokes the token with this id; false when there is none. */
  revoke(id: string): Promise<boolean>
}

// A recognisable prefix lets secret scanners and people tell an agent's token from the owner's.
const PREFIX = 'tandem_agent_'
const KEYS = 'agent-tokens'
// Last use is a convenience for the list: written at most this often per token, so calls are not disk writes.
const NOTE_USE_EVERY_MS = 60_000

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex')
const keyOf = (hash: string) => `${KEYS}:${hash}`
const viewOf = ({ hash: _, ...view }: StoredToken): AgentTokenView => view

/**
 * Agent tokens in `storage` (the data dir, or Redis shared by several servers), keyed by their SHA-256: the
 * tokens are 256 random bits, so a hash is as good as a slow one, and looking one up is one read. Nothing is
 * cached, so a token revoked by the CLI or another server stops working at its next call.
 */
export function createAgentTokens(storage: Storage, now: () => Date = () => new Date()): AgentTokens {
  const noted = new Map<string, number>()

  async function readAll(): Promise<StoredToken[]> {
    const items = await storage.getItems<StoredToken>(await storage.getKeys(KEYS))
    return items.flatMap(({ value }) => {
      const parsed = StoredToken.safeParse(value)
      return parsed.success ? [parsed.data] : []
    })
  }

  return {
    async create({ name, scope }) {
      const token = PREFIX + randomBytes(32).toString('base64url')
      const record: StoredToken = { id: randomBytes(5).toString('hex'), name, scope, createdAt: now().toISOString(), hash: hashOf(token) }
      await storage.setItem(keyOf(record.hash), record as never)
      return { ...viewOf(record), token }
    },

    async verify(token) {
      if (!token.startsWith(PREFIX)) return null
      const hash = hashOf(token)
      const record = await storage.getItem<StoredToken>(keyOf(hash))
      if (!record || record.hash !== hash) return null
      const at = now()
      if (at.getTime() - (noted.get(hash) ?? 0) >= NOTE_USE_EVERY_MS) {
        noted.set(hash, at.getTime())
        await storage.setItem(keyOf(hash), { ...record, lastUsedAt: at.toISOString() } as never)
      }
      return viewOf(record)
    },

    async list() {
      return (await readAll()).map(viewOf).sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    },

    async revoke(id) {
      const found = (await readAll()).find((t) => t.id === id)
      if (!found) return false
      await storage.removeItem(keyOf(found.hash))
      noted.delete(found.hash)
      return true
    },
  }
}
