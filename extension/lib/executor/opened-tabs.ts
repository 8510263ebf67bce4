type Listener<T> = { addListener(cb: (details: T) => void): void; removeListener(cb: (details: T) => void): void }

export interface OpenedApis {
  /** webNavigation.onCreatedNavigationTarget: a link with target=_blank or window.open made a new tab. */
  onCreatedNavigationTarget: Listener<{ sourceTabId: number; tabId: number }>
}

export interface OpenedWatch {
  /** The tabs a watched tab's page opened since the watch began, oldest first, with the tab that opened each. */
  opened(): { tabId: number; opener: number }[]
  stop(): void
}

/** Watches, while a step runs, for the tabs the task's pages open: those belong to the task. */
export function watchOpenedTabs(apis: OpenedApis, from: readonly number[]): OpenedWatch {
  const sources = new Set(from)
  const opened: { tabId: number; opener: number }[] = []
  const onCreated = (d: { sourceTabId: number; tabId: number }) => {
    if (!sources.has(d.sourceTabId) || opened.some((o) => o.tabId === d.tabId)) return
    opened.push({ tabId: d.tabId, opener: d.sourceTabId })
    // A tab the new one opens as it loads (a redirecting window) is the task's too.
    sources.add(d.tabId)
  }
  apis.onCreatedNavigationTarget.addListener(onCreated)
  return {
    opened: () => [...opened],
    stop: () => apis.onCreatedNavigationTarget.removeListener(onCreated),
  }
}
