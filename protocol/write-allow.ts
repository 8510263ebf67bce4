import { z } from 'zod'
import type { HeldRequest } from './held-request'

/**
 * "Always allow this on this site": a kind of write the person let through once and wants through from now on,
 * named by where it goes rather than by the one request, so deleting draft 8 is the same kind as deleting draft 7.
 */
export const WriteAllowRule = z.strictObject({
  /** The origin the request goes to (scheme, host and port). */
  site: z.string().min(1).max(500),
  method: z.string().min(1).max(16),
  /** The path with its ids turned into `*` (see generalisePath). */
  path: z.string().min(1).max(1000),
  /**
   * For a GraphQL call: the operation's name ('' for an unnamed one). One endpoint carries every mutation, so a
   * rule without it would let all of them through.
   */
  operation: z.string().max(200).optional(),
})
export type WriteAllowRule = z.infer<typeof WriteAllowRule>

/**
 * How long a rule lasts: `site` until the person removes it, `task` ("allow requests like this for the rest of
 * this task") only for the actions of the task it was made in.
 */
export const AllowScope = z.enum(['site', 'task'])
export type AllowScope = z.infer<typeof AllowScope>

/** How many rules one task keeps for itself; they go out with the site's, within MAX_ALLOWED_WRITES. */
export const MAX_TASK_ALLOWED_WRITES = 50

/** A rule as the server keeps it: when and by whom it was made. */
export const AllowedWrite = WriteAllowRule.extend({ at: z.string(), by: z.string().max(200) })
export type AllowedWrite = z.infer<typeof AllowedWrite>

/** How many rules the server keeps and hands out with each action; the oldest go first. */
export const MAX_ALLOWED_WRITES = 200

// request-url's MASK, the mark of a redacted segment. Imported from there it would pull the risk rules into
// action.ts, which they import: a cycle.
const MASK = '••••'
const NUMBER = /^\d+$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
// A word like "facade" or "added" is hex too: an id has a digit in it.
const HEX = /^(?=.*\d)[0-9a-f]{12,}$/i
const BASE64ISH = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_=-]{16,}$/

/** A segment that names one record rather than a kind of thing; a masked one (a token, an email) is one too. */
export function isIdSegment(segment: string): boolean {
  return NUMBER.test(segment) || UUID.test(segment) || HEX.test(segment) || BASE64ISH.test(segment) || segment.includes(MASK)
}

/** `/api/drafts/7/delete` → `/api/drafts/* /delete` (without the space): ids become `*`, the rest stays as it is. */
export function generalisePath(path: string): string {
  const general = path
    .split('/')
    .map((segment) => (isIdSegment(segment) ? '*' : segment))
    .join('/')
  return (general || '/').slice(0, 1000)
}

const operationOf = (request: Pick<HeldRequest, 'operation'>) => (request.operation ? (request.operation.name ?? '') : undefined)

/** The rule that lets this request, and others of its kind on its site, through. */
export function writeRuleOf(request: HeldRequest): WriteAllowRule {
  const operation = operationOf(request)
  return {
    site: request.origin,
    method: request.method.toUpperCase(),
    path: generalisePath(request.path),
    ...(operation !== undefined ? { operation } : {}),
  }
}

export const sameRule = (a: WriteAllowRule, b: WriteAllowRule) =>
  a.site === b.site && a.method.toUpperCase() === b.method.toUpperCase() && a.path === b.path && (a.operation ?? undefined) === (b.operation ?? undefined)

/**
 * Whether the person always allows this request. A `*` matches only an id, never a word, so a rule for deleting
 * a draft lets through no other action on drafts; a request with no site (a data: URL) is never allowed.
 */
export function allowedBy(rules: readonly WriteAllowRule[] | undefined, request: HeldRequest): boolean {
  if (!rules?.length || !request.origin) return false
  const mine = writeRuleOf(request)
  return rules.some((rule) => sameRule(rule, mine))
}
