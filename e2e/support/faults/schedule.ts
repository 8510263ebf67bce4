/** The faults a run can meet, each at one of its phases. The minute-long outage runs apart (it costs a minute). */
export const FAULTS = {
  /** The extension's service worker stopped. */
  'worker-stop': ['delivered', 'locked', 'mid-action', 'before-report'],
  /** The server killed with SIGKILL and started again on the same folders. */
  'server-kill': ['mid-action', 'before-report', 'any-time'],
  /** Reports sent beside the extension, straight to the server. */
  'duplicate-report': ['replay-last', 'older-id', 'concurrent'],
  /** The person closes the task's tab. */
  'tab-closed': ['mid-action', 'between-steps'],
  /** The person takes the task's tab to another page. */
  'tab-navigated': ['mid-action', 'between-steps'],
} as const

export type FaultKind = keyof typeof FAULTS | 'server-unreachable'
export type FaultPhase = (typeof FAULTS)[keyof typeof FAULTS][number] | 'outage'

export interface RunPlan {
  index: number
  kind: FaultKind
  phase: FaultPhase
  /** Which of the task's actions (by seq, 1 = the opening navigate) the fault is aimed at, where it is aimed at one. */
  seq: number
  /** How long the page takes to show "Counted" after the add: the window of a mid-action fault. */
  readyMs: number
  /** A delay the fault waits before it strikes, where its phase leaves room for one. */
  jitterMs: number
}

/** mulberry32: small, fast and the same on every machine, so a seed replays a schedule exactly. */
export function createRandom(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
  }
}

/** Weights: the worker has the most phases to cover, so it gets the most runs. */
const KINDS: (keyof typeof FAULTS)[] = ['worker-stop', 'worker-stop', 'server-kill', 'duplicate-report', 'tab-closed', 'tab-navigated']

/** Steps of the task that change the page (click add, type, click record), by seq. */
export const EFFECT_SEQS = [2, 4, 5]
/** The wait for "Counted", the one step that stays in the page's hands for a while. */
export const WAIT_SEQ = 3
export const LAST_SEQ = 6
/** Steps that still do their whole work on a page loaded afresh (the record needs the name typed before it). */
export const LOCKED_SEQS = [2, 4]

export function planRuns(seed: number, count: number): RunPlan[] {
  const random = createRandom(seed)
  return Array.from({ length: count }, (_, index) => {
    const kind = random.pick(KINDS)
    const phase = random.pick(FAULTS[kind])
    const midAction = phase === 'mid-action'
    const seq =
      midAction ? WAIT_SEQ
      : phase === 'before-report' ? random.int(1, LAST_SEQ)
      : phase === 'locked' ? random.pick(LOCKED_SEQS)
      : phase === 'older-id' || phase === 'concurrent' ? random.int(2, LAST_SEQ)
      : random.pick(EFFECT_SEQS)
    return { index, kind, phase, seq, readyMs: midAction ? random.int(800, 1600) : 0, jitterMs: random.int(0, midAction ? 400 : 1200) }
  })
}

export const seedFromEnv = () => {
  const given = Number(process.env.TANDEM_FAULT_SEED)
  return Number.isInteger(given) && given > 0 ? given : Math.floor(Math.random() * 2 ** 31)
}

export const runsFromEnv = () => {
  const given = Number(process.env.TANDEM_FAULT_RUNS)
  return Number.isInteger(given) && given > 0 ? given : 100
}

/** TANDEM_FAULT_ONLY=kind or kind:phase keeps those runs of the schedule (same seed, same runs), to replay a few. */
export function onlyFromEnv(plans: RunPlan[]): RunPlan[] {
  const only = process.env.TANDEM_FAULT_ONLY
  if (!only) return plans
  const [kind, phase] = only.split(':')
  return plans.filter((p) => p.kind === kind && (!phase || p.phase === phase))
}
