/** What the zoo's shell hands a page's script (window.__ZOO__), and how a page sends what the person chose. */
export interface ZooSpec {
  /** The task's id; the page reads only `page`, as a real page knows only what it is. */
  page: string
  lang: 'zh' | 'en'
  /** The task's folder on the site, e.g. /z/p1x2y3 */
  base: string
}

export const zoo = (window as unknown as { __ZOO__: ZooSpec }).__ZOO__

export const said = (zh: string, en: string) => (zoo.lang === 'zh' ? zh : en)

/** Tells what happened in words on the page, as real pages do ("已提交"). */
export function say(text: string): void {
  const el = document.getElementById('status')
  if (el) el.textContent = text
}

/** Sends the form's values as JSON to the task's folder: the site's log of this request is the task's verdict. */
export function post(path: string, values: unknown, method = 'POST'): void {
  fetch(zoo.base + path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(values) }).then(
    () => say(said('已提交', 'Saved')),
    () => say(said('提交失败', 'Something went wrong')),
  )
}

/** The one page of a library's entry this document shows; an unknown key is a zoo bug, said on the page. */
export function pick<T>(pages: Record<string, T>): T {
  const found = pages[zoo.page]
  if (!found) throw new Error(`no page "${zoo.page}" in this library`)
  return found
}

export const CITIES = ['北京', '上海', '广州', '深圳']
/** The month every date picker opens on, so a day's number names one cell. */
export const MONTH = { year: 2026, month: 12 }
