/** What the apps site hands a page's script (window.__APPS__): which page it is, where its folder is, what it starts with. */
export interface AppsSpec {
  /** The page's key (a TodoMVC app, or one jQuery-era page). */
  page: string
  lang: 'zh' | 'en'
  /** The task's folder on the site, e.g. /a/p1x2y3 */
  base: string
  /** Where the page keeps its state in localStorage: the folder's own key, so tasks sharing an origin never share state. */
  storageKey: string
  /** The todos a TodoMVC page starts with when its storage is empty: [title, completed]. */
  seed: [string, boolean][]
}

export const apps = (window as unknown as { __APPS__: AppsSpec }).__APPS__
