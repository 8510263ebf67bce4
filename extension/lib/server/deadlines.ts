/**
 * How long each call to the Tandem server may take before the extension stops waiting (and the worker retries,
 * or the panel says the server is not answering). Chrome stops a service worker whose fetch has no response
 * after 30 s, so every call the worker makes (next, report, status, pause, resume, cancel) stays well under that.
 */

/**
 * The server holds a long-poll for `waitMs`; this is the reply's trip and a busy server's turn on top. With the
 * longest wait (20 s) that is 25 s, under Chrome's 30 s; a poll cut while the server still worked on it is safe to
 * repeat, since an action it delivered meanwhile is offered again with the same actionId.
 */
export const NEXT_MARGIN_MS = 5_000

/** Nothing else: the server only says it is there. */
export const HEALTH_MS = 5_000

/**
 * Small reads from storage (info, status, task list, skill search, the writes always allowed). The panel polls
 * status every second and says "not answering" when it runs out: short enough to say so within seconds, long
 * enough for a loaded machine.
 */
export const READ_MS = 6_000

/**
 * Commands that change a task (start, confirm, answer, pause, resume, cancel), write a skill or forget an allowed
 * write: they take the task's lock and append to the audit log, or write to the shared store. Servers sharing Redis
 * wait up to 10 s for that lock before they answer 503 UNAVAILABLE ("try again in a moment"): the deadline leaves
 * room for that answer to arrive.
 */
export const COMMAND_MS = 15_000

/**
 * A report uploads the observation with its screenshots (up to 24 MB), may wait up to 10 s for the task's lock, and
 * the server writes the screenshots before it answers. Safe to cut: a report is retried with the same actionId and
 * applied once.
 */
export const REPORT_MS = 20_000

/** Bytes (a screenshot, the audit zip, which the server streams while it builds it): first the headers… */
export const BYTES_FIRST_MS = 10_000
/** …then the longest pause between two chunks: a big export may take as long as it needs while bytes arrive. */
export const BYTES_IDLE_MS = 10_000

/** The deadline of a `next` long-poll that asks the server to hold it for `waitMs` (the server's default is 0). */
export const nextDeadlineMs = (waitMs: number | undefined) => (waitMs ?? 0) + NEXT_MARGIN_MS
