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
  /**
   * The proxy takes a call of the extension and never answers it, the connection left open: before the server
   * sees the request, or after the server handled it and answered. Nobody wakes the extension afterwards.
   */
  hung: ['before-server', 'after-answer'],
} as const

export type FaultKind = keyof typeof FAULTS | 'server-unreachable'
export type FaultPhase = (typeof FAULTS)[keyof typeof FAULTS][number] | 'outage'
/** The call of the extension a hung fault takes: a next that hands out the action, or the action's report. */
export type HungCall = 'next' | 'report'
export const HUNG_CALLS: readonly HungCall[] = ['next', 'report']

export interface RunPlan {
  index: number
  kind: FaultKind
  phase: FaultPhase
  /** Which of the task's actions (by seq, 1 = the opening navigate) the fault is aimed at, where it is aimed at one. */
  seq: number
  /** For a hung fault: the call it takes. */
  call?: HungCall
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

type Kind = keyof typeof FAULTS

/** Weights of the random tail: the worker has the most phases to cover, so it gets the most runs. */
const KINDS: Kind[] = ['worker-stop', 'worker-stop', 'server-kill', 'duplicate-report', 'tab-closed', 'tab-navigated', 'hung']

/** Steps of the task that change the page (click add, type, click record), by seq. */
export const EFFECT_SEQS = [2, 4, 5]
/** The wait for "Counted", the one step that stays in the page's hands for a while. */
export const WAIT_SEQ = 3
export const LAST_SEQ = 6
/** Steps that still do their whole work on a page loaded afresh (the record needs the name typed before it). */
export const LOCKED_SEQS = [2, 4]
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

/**
 * The seqs a fault at this phase can be aimed at, where the seq changes what it tests; one entry where it does
 * not (the seq is then unused). A hung call costs a whole deadline of the extension (20 to 25 s), so hung faults
 * keep to the seqs that differ: a step that changes the page; for a next answered, also the opening action (handed
 * out on the client's poll, before the task has one of its own); for a report answered, also the last one (the
 * task has ended when the extension asks again).
 */
export function seqsOf(kind: Kind, phase: FaultPhase, call?: HungCall): number[] {
  if (kind === 'hung') {
    if (phase === 'before-server') return [2]
    return call === 'next' ? [1, 2] : [2, LAST_SEQ]
  }
  switch (phase) {
    case 'mid-action':
      return [WAIT_SEQ]
    case 'before-report':
      return range(1, LAST_SEQ)
    case 'locked':
      return LOCKED_SEQS
    case 'older-id':
    case 'concurrent':
      return range(2, LAST_SEQ)
    default:
      return EFFECT_SEQS
  }
}

/** Phases whose seq changes nothing: the cover runs them once. */
const SEQ_UNUSED = new Set<FaultPhase>(['replay-last', 'any-time'])

/** Cover runs draw their page delays and jitters from this seed: the same cover on every run of the suite. */
const COVER_SEED = 11

function timing(random: ReturnType<typeof createRandom>, phase: FaultPhase) {
  const midAction = phase === 'mid-action'
  return { readyMs: midAction ? random.int(800, 1600) : 0, jitterMs: random.int(0, midAction ? 400 : 1200) }
}

/** Every kind × phase (× call) × seq that matters, once each, in a fixed order. Indexes run from 0. */
export function coverRuns(): RunPlan[] {
  const random = createRandom(COVER_SEED)
  const plans: RunPlan[] = []
  for (const kind of Object.keys(FAULTS) as Kind[]) {
    for (const phase of FAULTS[kind] as readonly FaultPhase[]) {
      for (const call of kind === 'hung' ? HUNG_CALLS : [undefined]) {
        const seqs = seqsOf(kind, phase, call)
        for (const seq of SEQ_UNUSED.has(phase) ? seqs.slice(0, 1) : seqs) {
          plans.push({ index: plans.length, kind, phase, seq, ...(call ? { call } : {}), ...timing(random, phase) })
        }
      }
    }
  }
  return plans
}

/** A random tail drawn from `seed`; its indexes start at `from`, so a run keeps its number with or without the cover. */
export function tailRuns(seed: number, count: number, from: number): RunPlan[] {
  const random = createRandom(seed)
  return Array.from({ length: count }, (_, i) => {
    const kind = random.pick(KINDS)
    const phase: FaultPhase = random.pick(FAULTS[kind])
    const call = kind === 'hung' ? random.pick(HUNG_CALLS) : undefined
    const seq = random.pick(seqsOf(kind, phase, call))
    return { index: from + i, kind, phase, seq, ...(call ? { call } : {}), ...timing(random, phase) }
  })
}

/** The cover (unless turned off), then the tail. */
export function planRuns(seed: number, tail: number, cover = true): RunPlan[] {
  const covering = coverRuns()
  return [...(cover ? covering : []), ...tailRuns(seed, tail, covering.length)]
}

/** How a run is named in lines and tables: `kind · phase`, with the call of a hung fault. */
export const faultName = (plan: Pick<RunPlan, 'kind' | 'phase' | 'call'>) => [plan.kind, plan.phase, ...(plan.call ? [plan.call] : [])].join(' · ')

export const seedFromEnv = () => {
  const given = Number(process.env.TANDEM_FAULT_SEED)
  return Number.isInteger(given) && given > 0 ? given : Math.floor(Math.random() * 2 ** 31)
}

/** The default tail: with the cover it takes about as long as the 100 random runs took before the cover. */
export const DEFAULT_TAIL = 10

/** TANDEM_FAULT_RUNS: the length of the random tail (0: the cover alone). */
export const runsFromEnv = () => {
  const raw = process.env.TANDEM_FAULT_RUNS
  const given = Number(raw)
  return raw && Number.isInteger(given) && given >= 0 ? given : DEFAULT_TAIL
}

/** TANDEM_FAULT_COVER=0 skips the cover: a seed sweep runs tails only. */
export const coverFromEnv = () => process.env.TANDEM_FAULT_COVER !== '0'

/**
 * TANDEM_FAULT_ONLY=kind, kind:phase or kind:phase:call keeps those runs of the schedule (same seed, same runs),
 * to replay a few; several, comma-separated, keep each.
 */
export function onlyFromEnv(plans: RunPlan[]): RunPlan[] {
  const only = process.env.TANDEM_FAULT_ONLY
  if (!only) return plans
  const wanted = only.split(',').map((w) => w.trim().split(':'))
  return plans.filter((p) => wanted.some(([kind, phase, call]) => p.kind === kind && (!phase || p.phase === phase) && (!call || p.call === call)))
}
