import type { ArtifactUpload, HeldWrite, ObservationError, ObservationInput, UnmetEffect } from '#protocol'
import type { PageState } from '../messages'
import type { Shot } from './screenshot'

/** Collects what one action produced into the Observation the server expects. */
export function createObservationBuilder(startedAt: number, now: () => number = Date.now) {
  const artifacts: ArtifactUpload[] = []
  const errors: ObservationError[] = []
  const timing: Record<string, number> = {}
  let page: Partial<PageState> = {}
  let extracted: unknown
  let targetName: string | undefined
  let unmet: UnmetEffect | undefined
  let input: 'cdp' | 'dom' | undefined
  let command: { name: string; via: 'cdp' | 'dom' } | undefined
  let settled: { ms: number; quiet: boolean } | undefined
  let heldAfter: string | undefined
  const writes: { held?: HeldWrite[]; released?: HeldWrite[]; gone?: HeldWrite[] } = {}

  return {
    page(state: Partial<PageState> | undefined) {
      if (state) page = { ...page, ...state }
    },
    tab(tab: { url?: string; title?: string } | null | undefined) {
      if (tab) page = { ...page, ...(tab.url ? { url: tab.url } : {}), ...(tab.title ? { title: tab.title } : {}) }
    },
    shot(shot: Shot) {
      if ('artifact' in shot) artifacts.push(shot.artifact)
      else if (!errors.some((e) => e.code === shot.error.code)) errors.push(shot.error)
    },
    error(error: ObservationError) {
      errors.push(error)
    },
    /** What the write barrier held or let go during the step. */
    writes(what: typeof writes) {
      for (const [key, list] of Object.entries(what) as [keyof typeof writes, never[]][]) if (list?.length) writes[key] = list
    },
    /** The held writes came from the handlers of an earlier step, after it was reported. */
    heldAfter(actionId: string) {
      heldAfter = actionId
    },
    extracted(value: unknown) {
      extracted = value
    },
    /** The element the step's selector named, as a person reads it. */
    targetName(name: string) {
      targetName = name
    },
    /** Done, though what the step was expected to leave is not there: the page changed otherwise. */
    unmet(hint: UnmetEffect) {
      unmet = hint
    },
    /** How the step's clicks and keys reached the page. */
    input(kind: 'cdp' | 'dom') {
      input = kind
    },
    /** The editing command a pressed key ran, and how. */
    command(used: { name: string; via: 'cdp' | 'dom' }) {
      command = used
    },
    /** How long the page took to settle before the reading the observation carries (the last one wins). */
    settle(value: { ms: number; quiet: boolean } | undefined) {
      if (value) settled = value
    },
    mark(name: string, value = now() - startedAt) {
      timing[name] = value
    },
    done: () => build('done'),
    failed: (error?: ObservationError) => {
      if (error) errors.unshift(error)
      return build('failed')
    },
  }

  function build(status: 'done' | 'failed'): ObservationInput {
    return {
      status,
      url: page.url ?? '',
      title: page.title ?? '',
      elementTree: page.elementTree ?? '',
      ...(page.elements ? { elements: page.elements } : {}),
      visibleTextSnippet: page.visibleTextSnippet ?? '',
      ...(page.scroll ? { scroll: page.scroll } : {}),
      ...(extracted === undefined ? {} : { extracted }),
      ...(targetName ? { targetName } : {}),
      ...(unmet ? { unmet } : {}),
      ...(input ? { input } : {}),
      ...(command ? { command } : {}),
      ...(artifacts.length ? { artifacts: artifacts.slice(0, 8) } : {}),
      errors: errors.slice(0, 50),
      ...(writes.held ? { held: writes.held.slice(0, 20) } : {}),
      ...(heldAfter ? { heldAfter } : {}),
      ...(writes.released ? { released: writes.released.slice(0, 20) } : {}),
      ...(writes.gone ? { gone: writes.gone.slice(0, 20) } : {}),
      ...(settled ? { settle: settled } : {}),
      timing: { ...timing, totalMs: now() - startedAt },
    }
  }
}
export type ObservationBuilder = ReturnType<typeof createObservationBuilder>
