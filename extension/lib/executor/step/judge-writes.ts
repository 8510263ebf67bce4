import type { ObservationError, ObservationInput } from '#protocol'
import { heldWrite, withBlocked } from '../barrier-outcome'
import { reopenUnderBarrier, type Opened } from '../popups'
import type { WriteBarrier } from '../write-barrier'
import type { WriteBlock } from '../write-block'
import type { LiveTab, StepContext } from './context'

// What an in-page step comes to once what its writes' watch caught is added to the page's answer.

/** Windows the page opened during the step, opened again under the barrier: what they hold is the step's too. */
export async function withPopups(step: StepContext, result: ObservationInput, opened: Opened[], current: LiveTab): Promise<ObservationInput> {
  const { deps, action } = step
  const barrierStep = { taskId: action.taskId, stepId: action.actionId, pageUrl: current.url }
  const blocked = await reopenUnderBarrier({ tabs: deps.tabs, barrier: deps.barrier! }, opened, barrierStep, deps.navigationGraceMs ?? 500)
  const holds = await deps.barrier!.held(action.actionId)
  const held = holds.length && !result.held?.length ? { held: holds.map(heldWrite) } : {}
  if (!blocked.length) return { ...result, ...held }
  const error: ObservationError = {
    code: 'CONFIRMATION_REQUIRED',
    message: `The page tried to open ${blocked[0]!.request.origin}${blocked[0]!.request.path} in a new window while the step ran, which Tandem could not watch; it was stopped. Approve to run the step again.`,
  }
  return { ...result, ...held, status: 'failed', errors: [error, ...(result.errors ?? [])], blocked: [...(result.blocked ?? []), ...blocked] }
}

/** What the barrier decided without asking (telemetry dropped, writes the person allowed, harmless ones let go), for the report. */
export function withNotes(result: ObservationInput, barrier: Pick<WriteBarrier, 'dropped' | 'allowed' | 'harmless'> | undefined, tabId: number): ObservationInput {
  const dropped = barrier ? barrier.dropped(tabId) : []
  const allowed = barrier ? barrier.allowed(tabId) : []
  const harmless = barrier ? barrier.harmless(tabId) : []
  return {
    ...result,
    ...(dropped.length ? { dropped: dropped.slice(0, 50) } : {}),
    ...(allowed.length ? { allowed: allowed.slice(0, 50) } : {}),
    ...(harmless.length ? { harmless: harmless.slice(0, 50) } : {}),
  }
}

/** What the fallback blocked while the step ran, beside the WebSocket openings the barrier saw blocked. */
export function withBlockedWrites(result: ObservationInput, block: Pick<WriteBlock, 'blocked'>, barrier: Pick<WriteBarrier, 'sockets'> | undefined, tabId: number): ObservationInput {
  // webRequest does not show a blocked ws: address; the debugger names the WebSocket the page tried to open.
  const sockets = barrier ? barrier.sockets(tabId).map((request, i) => ({ id: `blocked-socket-${i}`, reason: 'websocket', request })) : []
  const blocked = block.blocked()
  return withBlocked(result, { ...blocked, writes: [...blocked.writes.filter((w) => w.request.kind !== 'websocket'), ...sockets] })
}
