import type { Risk } from './action'
import type { BarrierMode } from './observation'
import type { RiskReason, RiskReasonCode } from './risk-reasons'

/**
 * Whether a step is asked about before it runs. Where the write barrier holds what a step sends, the step's
 * effects decide: it runs, and only a held write becomes the person's question. Its words still decide where
 * the barrier cannot see:
 * - without the barrier (the debugger-less fallback, or the barrier turned off), as they always did, and Enter in
 *   a message box counts as sending there: a chat's socket carries the message past anything that blocks requests;
 * - for what never goes out as a request the barrier holds, whatever the page: a file uploaded, a download, a
 *   secret or credential typed into the page (a read can carry it off), a scheme that runs code;
 * - where a person or an actor said so in their own words: the person's rules file, a script's, model's or MCP
 *   client's declared high risk, a plan-first task's step off its approved plan, a write held or blocked already.
 */
const BLIND: ReadonlySet<RiskReasonCode> = new Set<RiskReasonCode>([
  'dangerous-scheme',
  'download-url',
  'download-attr',
  'upload-file',
  'credential-field',
  'secret',
  'declared',
  'url-rules-high',
  'label-rules',
  'selector-rules-high',
  'drop-rules',
  'off-plan-site',
  'off-plan-send',
  'held-write',
])

/** A reason the barrier cannot answer by holding what the step sends. */
export const barrierBlind = (reason: Pick<RiskReason, 'code' | 'level'>) =>
  BLIND.has(reason.code) && (reason.code !== 'declared' || reason.level === 'high')

/** Enter in a multi-line message box: a chat sends it, over a socket that may be open already. */
const SENDS_MESSAGE: ReadonlySet<RiskReasonCode> = new Set<RiskReasonCode>(['press-enter-message'])

/**
 * `declared`: the risk the step's own author gave it (a script step, the model, an MCP client). High, it asks whatever
 * else was found: classifyRisk names it as a reason only where the words said less.
 */
export function asksFirst(
  assessed: { risk: Risk; details: readonly Pick<RiskReason, 'code' | 'level'>[] },
  barrier: BarrierMode | undefined,
  declared?: Risk,
): boolean {
  if (declared === 'high') return true
  if (barrier !== 'held') return assessed.risk === 'high' || assessed.details.some((d) => SENDS_MESSAGE.has(d.code))
  return assessed.risk === 'high' && assessed.details.some(barrierBlind)
}
