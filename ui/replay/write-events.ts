import type { Event, Placers, ReplayDraft } from './draft'
import type { ReplayWrite } from './types'

type WriteEvent = Event<'write.held' | 'write.released' | 'write.refused' | 'write.dropped' | 'write.allowed' | 'write.harmless'>

function writeOf(event: WriteEvent, clientId?: string): ReplayWrite {
  const by = 'by' in event.data ? event.data.by : undefined
  const base = {
    at: event.ts,
    request: event.data.request,
    ...(event.actionId ? { actionId: event.actionId } : {}),
    ...(by && by === clientId ? { byPanel: true } : {}),
  }
  switch (event.type) {
    case 'write.held': {
      const actionId = event.data.stepActionId ?? event.actionId
      return { ...base, outcome: 'held', reason: event.data.reason, ...(actionId ? { actionId } : {}) }
    }
    case 'write.released':
      return { ...base, outcome: 'released', by: event.data.by, at: event.data.at || event.ts }
    case 'write.refused':
      return { ...base, outcome: 'refused', reason: event.data.why, ...(event.data.by ? { by: event.data.by } : {}) }
    case 'write.dropped':
      return { ...base, outcome: 'dropped', reason: event.data.reason }
    case 'write.allowed':
      return { ...base, outcome: 'allowed', ...(event.data.rule ? { rule: event.data.rule } : {}), ...(event.data.scope ? { scope: event.data.scope } : {}) }
    case 'write.harmless':
      return { ...base, outcome: 'harmless', kind: event.data.kind }
  }
}

const placeWrite = (draft: ReplayDraft, event: WriteEvent) => {
  draft.replay.timeline.push({ kind: 'write', write: writeOf(event, draft.replay.clientId) })
}

/** What the page tried to send during a step, and what became of it. */
export const writePlacers: Placers = {
  'write.held': placeWrite,
  'write.released': placeWrite,
  'write.refused': placeWrite,
  'write.dropped': placeWrite,
  'write.allowed': placeWrite,
  'write.harmless': placeWrite,
}
