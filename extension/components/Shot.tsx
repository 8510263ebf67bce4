import { useState } from 'preact/hooks'
import type { ArtifactMark } from '#protocol'
import { cropAround, placeIn } from '../lib/panel/crop'
import type { PanelStore } from '../lib/panel/store'

/** The card's frame: wide enough to read a button's words in a side panel, short enough to leave the facts in view. */
const FRAME_ASPECT = 4 / 3
const WHOLE = { x: 0, y: 0, w: 1, h: 1 }

/**
 * One screenshot of the task, once its bytes arrived (they need the token, so the store fetches them). A picture
 * with a marked element shows the page around it, the element outlined, and the whole page a tap away.
 */
export function Shot({ store, name, caption, wide, mark }: { store: PanelStore; name: string; caption: string; wide?: boolean; mark?: ArtifactMark }) {
  const url = store.task.images.value[name]
  const [aspect, setAspect] = useState(16 / 9)
  const [whole, setWhole] = useState(false)
  const { t } = store
  const crop = mark && !whole ? cropAround(mark, aspect, FRAME_ASPECT) : WHOLE
  const image = (
    <img
      src={url}
      alt={caption}
      style={crop === WHOLE ? undefined : placeIn(crop, WHOLE)}
      onLoad={(e) => {
        const img = e.currentTarget
        if (img.naturalWidth && img.naturalHeight) setAspect(img.naturalWidth / img.naturalHeight)
      }}
    />
  )
  return (
    <figure class={wide ? 'thumb wide' : 'thumb'}>
      {url ? (
        <a
          href={url}
          target="_blank"
          rel="noreferrer"
          class={mark ? 'marked' : undefined}
          data-testid={mark ? 'marked-shot' : undefined}
          data-view={mark ? (whole ? 'whole' : 'around') : undefined}
          style={crop === WHOLE ? undefined : { aspectRatio: String((crop.w * aspect) / crop.h) }}
        >
          {image}
          {mark && <span class="mark" aria-hidden="true" style={placeIn(crop, mark)} />}
        </a>
      ) : (
        <div class="thumb-empty" aria-hidden="true" />
      )}
      <figcaption>
        {caption}
        {mark && url && (
          <button type="button" class="shot-view" data-testid="shot-view" onClick={() => setWhole(!whole)}>
            {t(whole ? 'shot.around' : 'shot.whole')}
          </button>
        )}
      </figcaption>
    </figure>
  )
}
