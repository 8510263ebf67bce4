import { z } from 'zod'

/**
 * Text a person writes to Tandem (a goal, an answer, a reason, a skill's name and SOP) is kept as written: line
 * and paragraph separators, controls, bidi marks, emoji and every script included. Only what cannot be text at all
 * is refused: half of a UTF-16 surrogate pair on its own, which UTF-8 (files, the model's API) cannot hold.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Whether text is well-formed Unicode: no surrogate without its other half. */
export const isWellFormedText = (text: string) => !LONE_SURROGATE.test(text)

/** Text as UTF-8 will store it: a lone surrogate becomes U+FFFD, as writing it to a file would make it anyway. */
export const toWellFormedText = (text: string) => text.replace(new RegExp(LONE_SURROGATE, 'g'), '\uFFFD')

/** The first `max` UTF-16 units of text, one fewer when the cut would split an emoji or another astral character. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max
  return text.slice(0, end)
}

/** `text`, or its start and an ellipsis when longer than `max`. */
export const shortenText = (text: string, max: number) => (text.length > max ? `${cutText(text, max - 1)}…` : text)

const WELL_FORMED = 'must be well-formed Unicode: send each emoji or rare character whole (a surrogate pair), not half of one'

/** A person's free text: any characters, as written, up to `max` UTF-16 units. */
export const PersonText = (max: number) => z.string().max(max).refine(isWellFormedText, WELL_FORMED)

/** A person's free text that must say something: trimmed, then at least one character, as written otherwise. */
export const FilledText = (max: number) => z.string().trim().min(1).max(max).refine(isWellFormedText, WELL_FORMED)

// C0 and C1 controls (tab and newline among them), U+2028 and U+2029: what ends a line or is not shown.
const LINE_BREAKING = /[\p{Cc}\u2028\u2029]/u

/** A name a list shows on one line: trimmed, without line breaks or control characters, well-formed. */
export const OneLineText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => !LINE_BREAKING.test(s), 'must be one line: remove line breaks, tabs and control characters')
    .refine(isWellFormedText, WELL_FORMED)

/** Text made one line: runs of spaces, line breaks and control characters become one space. */
export const oneLineOf = (text: string) => text.replace(/[\s\p{Cc}]+/gu, ' ').trim()
