/**
 * A click the markup itself declares: an inline handler (`onclick`, `ondblclick`, `onmousedown`…) or one set as a
 * property, and the bindings frameworks write into the HTML (Alpine's `@click`/`x-on:click`, Vue's `v-on:click` in a
 * DOM template, AngularJS's `ng-click`, htmx's `hx-post`, Livewire's `wire:click`, Stimulus's `data-action`, jQuery UI's
 * `data-event="click"` on a datepicker's Prev and Next). Listeners added from script leave no trace a content
 * script's world can read: those controls are known by their pointer cursor, their row, or their hover rule instead.
 */
const DECLARED = /^(on(click|dblclick|mousedown|mouseup|pointerdown|pointerup|touchstart)|(data-)?ng-click|v-on:click|@click|x-on:click|hx-(get|post|put|patch|delete)|wire:click|data-action)(\.|$)/
const CLICK_VALUE = /click/i

export function declaresClick(el: Element): boolean {
  if (typeof (el as HTMLElement).onclick === 'function') return true
  if (!el.hasAttributes()) return false
  // Names only, read once per element walked: `el.attributes` would make an Attr object for each.
  for (const name of el.getAttributeNames()) {
    if (DECLARED.test(name)) return true
    if ((name === 'data-event' || name === 'jsaction') && CLICK_VALUE.test(el.getAttribute(name) ?? '')) return true
  }
  return false
}
