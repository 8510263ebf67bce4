import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { AuditEvent, parseAuditEvent } from '#protocol'

/** An audit event the servers of a run wrote that does not read as its type. */
export interface UnreadableEvent {
  file: string
  line: number
  type: string
  problem: string
}

function* eventFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* eventFiles(path)
    else if (entry.name === 'events.jsonl') yield path
  }
}

/**
 * Every event of every events.jsonl under `dir` (a run's outputs: the audits its servers wrote) that is of a type
 * protocol/audit-events.ts does not know, or whose data is not that type's shape. Readers tolerate them; the
 * suite does not, since the server wrote them.
 */
export function unreadableAuditEvents(dir: string): { events: number; unreadable: UnreadableEvent[] } {
  let events = 0
  const unreadable: UnreadableEvent[] = []
  for (const file of eventFiles(dir)) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((text, i) => {
        if (!text.trim()) return
        let raw: unknown
        try {
          raw = JSON.parse(text)
        } catch {
          return // a torn last line: the chain's verifier answers for those
        }
        const envelope = AuditEvent.safeParse(raw)
        if (!envelope.success) return
        events++
        const parsed = parseAuditEvent(envelope.data)
        if (parsed.type === 'unknown') unreadable.push({ file: relative(dir, file), line: i + 1, type: envelope.data.type, problem: parsed.problem ?? 'unknown type' })
      })
  }
  return { events, unreadable }
}
