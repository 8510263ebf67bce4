import type { AskAlwaysRule, HarmlessWrite, HeldRequest, RedactSettings, WriteAllowRule } from '#protocol'

/** What the write barrier keeps for each task tab it watches, and which of the page's requests CDP pauses for it. */

/** A WebSocket message that left while the step ran, unheld and unasked. */
export interface SocketLeak {
  url: string
  bytes: number
}

export interface PausedEvent {
  requestId: string
  request: { url: string; method: string; headers?: Record<string, string>; postData?: string }
  resourceType?: string
}

/** The step a barrier is engaged for, and the rules it holds by. */
export type BarrierStep = Pick<Watch, 'taskId' | 'stepId' | 'pageUrl' | 'redact' | 'allow' | 'askAlways' | 'adopted'> & {
  /** The step whose tail this step takes over (see createStepTail): what that held is this step's. */
  inherit?: string
}

export interface Watch {
  taskId: string
  stepId: string
  pageUrl: string | undefined
  /** What the server hides (emails, phones): hidden in what a held request shows too. */
  redact?: RedactSettings
  /** The kinds of write the person always allows on their sites: these go on without asking. */
  allow?: WriteAllowRule[]
  /** Kinds of harmless write the person wants asked about on a site all the same: these are held. */
  askAlways?: AskAlwaysRule[]
  /** hold: a step the person did not approve runs; pass: it ended, what it held waits, anything new is the person's. */
  mode: 'hold' | 'pass'
  sessions: Set<string>
  /** A window the page opened, taken under the barrier for the step: let go of entirely when done with. */
  adopted?: boolean
  documents: number
  /** The debugger's attachment Fetch was turned on in (see TabDebugger.attachment). */
  attachment?: number
  /** Set while the barrier stays on after a step that held nothing, until it comes off. */
  linger?: ReturnType<typeof setTimeout>
  sockets: HeldRequest[]
  /** Set once the pages' socket wrappers were told to hold: from then on a frame sent unheld is a leak. */
  socketsHeld?: boolean
  /** Messages the page sent over a WebSocket that no wrapper held (see the barrier's backstop). */
  leaks: SocketLeak[]
  dropped: HeldRequest[]
  allowed: HeldRequest[]
  /** Harmless writes (analytics, a cart line, a preference, a draft, presence) that went on unasked. */
  harmless: HarmlessWrite[]
  wake: () => void
}

/**
 * The kinds of request that can carry a write: documents (form posts), XHR and fetch, beacons and pings, and the
 * rest Chrome files under Other. Images, styles, scripts, fonts and media are only ever fetched with GET, so they
 * go on without a round trip through the worker (a page's load stays as fast with the barrier as without).
 */
const WRITE_CARRIERS = ['Document', 'XHR', 'Fetch', 'Ping', 'Other', 'EventSource', 'CSPViolationReport']
export const WRITE_REQUESTS = { patterns: WRITE_CARRIERS.map((resourceType) => ({ urlPattern: '*', resourceType, requestStage: 'Request' })) }
export const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }
