import { z } from 'zod'
import { OneLineText } from './text'

/**
 * Who a request authenticated as: the owner (the person's own token, printed by `npm start`) or an agent (a token
 * the owner made for an outside agent, which opens /mcp and nothing else). It is what the token proves, never what
 * a header claims: under the owner token a header may only say which of the person's own surfaces asked.
 */
export const Principal = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('owner'),
    /** The extension's side panel (it names its instance), the console, or the person's own scripts. */
    via: z.enum(['panel', 'console', 'api']),
  }),
  z.object({
    kind: z.literal('agent'),
    /** The agent token's id (never the token), and the name the owner gave it. */
    tokenId: z.string().max(64),
    name: z.string().max(200),
    /** The MCP client behind the token, as it named itself when it connected. */
    client: z.string().max(128).optional(),
  }),
])
export type Principal = z.infer<typeof Principal>

/** Which principals a route accepts: `anyone` needs no token at all. */
export const PrincipalKind = z.enum(['anyone', 'owner', 'agent'])
export type PrincipalKind = z.infer<typeof PrincipalKind>

/** Whether two principals are the same credential (an agent's MCP client name may differ between sessions). */
export function sameCredential(a: Principal | undefined, b: Principal | undefined): boolean {
  if (!a || !b || a.kind !== b.kind) return false
  return a.kind === 'owner' || (b.kind === 'agent' && a.tokenId === b.tokenId)
}

/** A principal in the server's own English words (the task's error, an agent's answers); the UIs have their own. */
export function principalWords(p: Principal | undefined): string {
  if (!p || p.kind === 'owner') return 'the person'
  return p.client && p.client !== p.name ? `${p.name} (${p.client})` : p.name
}

/** A decision someone made on a task (approved or rejected a step, answered a question or the plan, canceled). */
export const TaskAnswer = z.object({
  kind: z.enum(['confirmation', 'question', 'plan', 'cancel']),
  approved: z.boolean().optional(),
  question: z.string().optional(),
  answer: z.string().optional(),
  reason: z.string().optional(),
  /** Which step it was about (a confirmation). */
  actionId: z.string().optional(),
  by: Principal,
  at: z.string(),
})
export type TaskAnswer = z.infer<typeof TaskAnswer>

/** Agent tokens: made by the owner, shown once, stored hashed. */
export const TOKEN_SCOPES = ['mcp'] as const
export const CreateTokenBody = z.strictObject({
  scope: z.enum(TOKEN_SCOPES),
  name: OneLineText(100),
})
export type CreateTokenBody = z.infer<typeof CreateTokenBody>

/** An agent token as it is listed: never the token itself. */
export const AgentTokenView = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(TOKEN_SCOPES),
  createdAt: z.string(),
  lastUsedAt: z.string().optional(),
})
export type AgentTokenView = z.infer<typeof AgentTokenView>
export const CreatedToken = AgentTokenView.extend({ token: z.string() })
export type CreatedToken = z.infer<typeof CreatedToken>
export const TokenIdParams = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a token id') })
/** `DELETE /api/tokens/:id`: the token named is refused from its next call. */
export const RevokedToken = z.object({ id: z.string(), revoked: z.literal(true) })
export type RevokedToken = z.infer<typeof RevokedToken>
