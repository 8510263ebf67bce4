/**
 * A frontmatter value as SKILL.md writes it: one line of JSON. JSON.stringify escapes the C0 controls but leaves
 * characters some readers end a line at (NEL for YAML 1.1, U+2028 and U+2029 for JavaScript's `.` and many
 * editors), and the invisible ones that reorder or hide what a person reading the file sees (bidi controls, C1
 * controls, a BOM). Those are written as \u escapes too, so the value reads back exactly and looks like what it is.
 */
const HIDDEN_OR_BREAKING = /[\u0080-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g

const escape = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`

export const frontmatterValue = (value: string | object): string => JSON.stringify(value).replace(HIDDEN_OR_BREAKING, escape)
