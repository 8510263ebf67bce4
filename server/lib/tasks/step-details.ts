import type { Action, ArtifactLink, ArtifactRef, ConfirmationEvidence, ElementInfo, Observation, StepView, Target } from '#protocol'
import { isEvidenceStep, targetWords } from '#protocol'

const MAX_TARGET = 200
const cut = (s: string) => (s.length > MAX_TARGET ? `${s.slice(0, MAX_TARGET - 1)}…` : s)
const clean = (s: string | undefined) => s?.replace(/\s+/g, ' ').trim() || undefined

// The parts of a CSS selector a person could read: an accessible name, a placeholder, a title or an alt text.
const READABLE_ATTR = /\[(?:aria-label|placeholder|title|alt)=(?:"([^"]+)"|'([^']+)'|([^\]]+))\]/i

/**
 * The element an action is aimed at, as a person would name it: its text, label or placeholder when the page
 * told us, else the words a script named it by (a role's name, never the role), else what the page called it when
 * it was pictured for the card (`pictured`). A CSS selector is not a name (`#name`): only the words inside it a
 * person could read are kept, else the step goes unnamed and says what it did.
 */
export function targetTextOf(target: Target | undefined, element: ElementInfo | undefined, pictured?: string): string | undefined {
  const a = element?.attributes ?? {}
  const named = clean(element?.text) ?? clean(a['aria-label']) ?? clean(a.placeholder) ?? clean(a.title) ?? clean(a.alt) ?? clean(a.name)
  if (named) return cut(named)
  const said = clean(targetWords(target)) ?? clean(pictured)
  if (said) return cut(said)
  if (target?.by !== 'selector') return undefined
  const readable = READABLE_ATTR.exec(String(target.value))
  const words = clean(readable?.[1] ?? readable?.[2] ?? readable?.[3])
  return words ? cut(words) : undefined
}

/**
 * What a type step typed, for its row in the timeline: the text itself, or for a password only that it was one
 * (the value never leaves the server's scrubbing); a `{{secret:NAME}}` placeholder stays, naming the secret.
 */
export function typedOf(action: Pick<Action, 'type' | 'params'>): Pick<StepView, 'text' | 'sensitive'> {
  if (action.type !== 'type' || typeof action.params.text !== 'string') return {}
  if (action.params.sensitive === true) return { sensitive: true }
  return { text: cut(action.params.text) }
}

export const artifactLinks = (refs: ArtifactRef[]): ArtifactLink[] => refs.map(({ name, label, mark }) => ({ name, label, ...(mark ? { mark } : {}) }))

// A 'before' picture shows the page as the step found it, so it is the last choice for "the page now".
const FRESHNESS = ['screenshot', 'after', 'observation', 'before'] as const

/** The newest screenshot among the task's steps: the last step that has one, its most recent picture. */
export function newestScreenshot(steps: StepView[]): ArtifactLink | undefined {
  for (let i = steps.length - 1; i >= 0; i--) {
    const links = steps[i].artifacts ?? []
    for (const label of FRESHNESS) {
      const found = links.findLast((l) => l.label === label)
      if (found) return found
    }
  }
  return undefined
}

/**
 * Whether the page has been pictured since the last step ran (or the last step was the picture itself), and not
 * handed to the person since: whatever they did while in control is not in any earlier picture.
 */
export function pageIsPictured(steps: StepView[], resumedAt?: string): boolean {
  const last = steps.at(-1)
  if (!last || (resumedAt && resumedAt >= last.at)) return false
  return isEvidenceStep(last) || (last.artifacts ?? []).some((l) => l.label !== 'before')
}

const originOf = (url: string | undefined) => {
  if (!url) return undefined
  try {
    const origin = new URL(url).origin
    return origin === 'null' ? undefined : origin
  } catch {
    return undefined
  }
}

/** What the person sees on a confirmation card: the page the action runs on, its element, the newest picture. */
export function confirmationEvidence(observation: Observation | null, targetText: string | undefined, steps: StepView[]): ConfirmationEvidence {
  const last = steps.at(-1)
  // When the picture taken for this card failed, an older one would show a page that may no longer be there.
  const pictureFailed = !!last && isEvidenceStep(last) && !last.artifacts?.length
  const screenshot = pictureFailed ? undefined : newestScreenshot(steps)
  const origin = originOf(observation?.url)
  return {
    ...(observation?.url ? { url: observation.url } : {}),
    ...(observation?.title ? { title: observation.title } : {}),
    ...(origin ? { origin } : {}),
    ...(targetText ? { targetText } : {}),
    ...(screenshot ? { screenshot } : {}),
  }
}
