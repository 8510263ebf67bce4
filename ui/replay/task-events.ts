import type { Placers } from './draft'
import { str } from './draft'

/** The task as a whole: what it was asked, whose browser runs it, its status, how it was canceled or ended. */
export const taskPlacers: Placers = {
  'task.created'({ replay }, event) {
    const d = event.data
    replay.goal = d.goal
    replay.mode = d.mode
    replay.startUrl = str(d.startUrl)
    replay.skill = str(d.skill)
    replay.skillName = str(d.skillName)
    replay.wordsZh = d.wordsZh
    replay.clientId = str(d.clientId) ?? str(d.source.clientId)
    replay.createdAt = event.ts
  },
  'task.bound'({ replay }, event) {
    replay.clientId = str(event.data.clientId) ?? replay.clientId
  },
  'task.status'({ replay }, event) {
    replay.status = event.data.to
  },
  'task.canceled'({ replay }, event) {
    const by = event.data.source.principal
    replay.timeline.push({ kind: 'canceled', at: event.ts, reason: str(event.data.reason), ...(by ? { by } : {}) })
    if (by) replay.canceledBy = by
  },
  'queue.dropped'({ replay }, event) {
    replay.timeline.push({ kind: 'dropped', at: event.ts, reason: str(event.data.reason), count: event.data.dropped.length })
  },
  'task.finished'({ replay }, event) {
    const { status, result, error } = event.data
    replay.status = status
    if (result) {
      replay.result = {
        success: result.success,
        text: result.text,
        ...(result.data === undefined ? {} : { data: result.data }),
        ...(result.code ? { code: result.code } : {}),
        ...(result.params ? { params: result.params } : {}),
      }
    }
    if (error) replay.error = { code: str(error.code) ?? 'ERROR', message: error.message, ...(error.details ? { details: error.details } : {}) }
    replay.finishedAt = event.ts
  },
}
