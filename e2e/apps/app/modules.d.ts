/** What a .svelte file exports, for TypeScript (the Svelte compiler makes the module through Vite). */
declare module '*.svelte' {
  import type { Component } from 'svelte'
  const component: Component
  export default component
}

/** A stylesheet's text (Vite's ?inline), for a shadow root to adopt. */
declare module '*.css?inline' {
  const css: string
  export default css
}

/** selectric's and select2's CommonJS builds: a function that installs the plugin on the jQuery it is given. */
declare module 'selectric' {
  const install: (root: Window, jq: JQueryStatic) => void
  export default install
}
declare module 'select2' {
  const install: (root: Window, jq: JQueryStatic) => void
  export default install
}

/** The jQuery plugins the jQuery-era pages call, as far as they call them. */
interface JQuery {
  selectric(): JQuery
  select2(options?: { placeholder?: string }): JQuery
  chosen(options?: object): JQuery
  datepicker(options?: { defaultDate?: Date }): JQuery
  autocomplete(options: { source: { label: string; value: string; code: string }[]; select?: (e: Event, ui: { item: { label: string; value: string; code: string } }) => void }): JQuery
  sortable(options?: { update?: () => void }): JQuery
}
