import { useEffect, useState } from 'preact/hooks'
import type { ReplayArtifact } from './model'
import { useReplayContext } from './context'

/** One screenshot thumbnail; a click shows it large. */
export function Shot({ artifact, step }: { artifact: ReplayArtifact; step: number }) {
  const { t, image, showLarge } = useReplayContext()
  const [src, setSrc] = useState<string | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let live = true
    Promise.resolve()
      .then(() => image(artifact.name))
      .then((url) => live && setSrc(url))
      .catch(() => live && setFailed(true))
    return () => {
      live = false
    }
  }, [artifact.name, image])
  const label = t((['before', 'after', 'observation'].includes(artifact.label) ? artifact.label : 'screenshot') as 'before')
  return (
    <figure class="thumb shot" data-artifact={artifact.name} data-label={artifact.label}>
      {failed ? (
        <span class="shot-missing">{t('imageMissing')}</span>
      ) : (
        <button
          type="button"
          class="shot-open"
          aria-label={t('openLarge', { label, n: step })}
          disabled={!src}
          onClick={() => src && showLarge({ src, caption: `${t('step', { n: step })} · ${label}` })}
        >
          {src && <img src={src} alt={`${t('step', { n: step })} · ${label}`} onError={() => setFailed(true)} />}
        </button>
      )}
      <figcaption>{label}</figcaption>
    </figure>
  )
}

/** The large view of one screenshot, over the page; Escape or a click closes it. */
export function Lightbox({ shot, onClose }: { shot: { src: string; caption: string }; onClose(): void }) {
  const { t } = useReplayContext()
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose()
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [onClose])
  return (
    <div class="lightbox" role="dialog" aria-modal="true" aria-label={shot.caption} onClick={onClose}>
      <figure onClick={(event) => event.stopPropagation()}>
        <img src={shot.src} alt={shot.caption} />
        <figcaption class="row">
          <span>{shot.caption}</span>
          <button type="button" class="lightbox-close" autofocus onClick={onClose}>
            {t('close')}
          </button>
        </figcaption>
      </figure>
    </div>
  )
}
