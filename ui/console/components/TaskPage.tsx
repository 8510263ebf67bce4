import { useCallback, useMemo } from 'preact/hooks'
import { replayTranslator } from '../../replay/i18n'
import { buildReplay } from '../../replay/model'
import { ReplayView } from '../../replay/ReplayView'
import { useConsole } from '../context'
import { hrefOf } from '../route'
import { isFinished } from '../store'
import { Decision } from './Decision'
import { SaveSkill } from './SaveSkill'

/** One task replayed from its audit, with its export and, once finished, saving it as a skill. */
export function TaskPage({ taskId }: { taskId: string }) {
  const { store, t, lang } = useConsole()
  const rt = useMemo(() => replayTranslator(lang), [lang])
  const audit = store.audit.value
  const replay = useMemo(() => (audit ? buildReplay(audit.events) : null), [audit])
  const image = useCallback((name: string) => store.image(taskId, name), [store, taskId])
  const status = store.taskView.value?.task.status ?? replay?.status
  return (
    <section class="task-page">
      <p>
        <a href={hrefOf({ page: 'tasks' })}>{t('back')}</a>
      </p>
      {store.taskError.value && (
        <p class="error" role="alert">
          {store.taskError.value}
        </p>
      )}
      <Decision taskId={taskId} />
      {!replay ? (
        !store.taskError.value && <p class="muted">{t('loading')}</p>
      ) : (
        <ReplayView
          replay={replay}
          verified={audit?.verified}
          t={rt}
          lang={lang}
          image={image}
          actions={
            <>
              <button type="button" class="download" disabled={store.downloading.value} onClick={() => store.download(taskId)}>
                {store.downloading.value ? t('downloading') : t('download')}
              </button>
              {isFinished(status) && <SaveSkill taskId={taskId} goal={replay.goal} />}
            </>
          }
        />
      )}
    </section>
  )
}
