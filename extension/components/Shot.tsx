import type { PanelStore } from '../lib/panel/store'

/** One screenshot of the task, once its bytes arrived (they need the token, so the store fetches them). */
export function Shot({ store, name, caption, wide }: { store: PanelStore; name: string; caption: string; wide?: boolean }) {
  const url = store.task.images.value[name]
  return (
    <figure class={wide ? 'thumb wide' : 'thumb'}>
      {url ? (
        <a href={url} target="_blank" rel="noreferrer">
          <img src={url} alt={caption} />
        </a>
      ) : (
        <div class="thumb-empty" aria-hidden="true" />
      )}
      <figcaption>{caption}</figcaption>
    </figure>
  )
}
