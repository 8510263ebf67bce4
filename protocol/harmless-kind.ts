import { z } from 'zod'
import { HeldRequest } from './held-request'

/**
 * Writes a person would never want to be asked about, told apart by what the request is (its host, path and
 * payload), never by the label of what was clicked:
 * - telemetry: analytics, error reporting and real-user monitoring, to a vendor or through the site's own domain;
 * - cart, wishlist: a cart line added or its quantity changed, an item saved to a wishlist (undone as easily);
 * - preference: a UI setting (theme, language, a collapsed panel, page size);
 * - draft: a draft saved while the person's text is typed (an autosave), never its sending or publishing;
 * - presence: "is typing", "seen", heartbeats: what a page says about the person being there.
 * The barrier lets them go on without a question and the audit records each one with its kind; a person can make a
 * kind "always ask" on a site.
 */
export const HarmlessKind = z.enum(['telemetry', 'cart', 'wishlist', 'preference', 'draft', 'presence'])
export type HarmlessKind = z.infer<typeof HarmlessKind>

/** A harmless write the barrier let go on during a step, with its kind. */
export const HarmlessWrite = z.strictObject({ kind: HarmlessKind, request: HeldRequest })
export type HarmlessWrite = z.infer<typeof HarmlessWrite>

/** "Always ask about this kind on this site": the person wants the question back for one kind of harmless write. */
export const AskAlwaysRule = z.strictObject({
  /** The registrable domain the kind is asked about on (siteOf). */
  site: z.string().min(1).max(500),
  kind: HarmlessKind,
})
export type AskAlwaysRule = z.infer<typeof AskAlwaysRule>

/** A rule as the server keeps it: when and by whom it was made. */
export const AskAlwaysEntry = AskAlwaysRule.extend({ at: z.string(), by: z.string().max(200) })
export type AskAlwaysEntry = z.infer<typeof AskAlwaysEntry>

/** How many such rules the server keeps and sends with each action. */
export const MAX_ASK_ALWAYS = 100

export const asksAlways = (rules: readonly AskAlwaysRule[] | undefined, site: string | undefined, kind: HarmlessKind) =>
  !!site && !!rules?.some((r) => r.site === site && r.kind === kind)
