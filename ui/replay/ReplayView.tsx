import { describeBrowser, describeError, describeResult, inReaderLang, skillWords } from '#protocol'
import { statusOf } from '../status-words'
import { principalName } from '../principal-words'
import type { ComponentChildren } from 'preact'
import { useCallback, useMemo, useState } from 'preact/hooks'
import type { VerifyResult } from '#protocol'
import type { Lang } from '../i18n'
import { formatTime, ReplayContext, seconds, useReplayContext, type ImageSource, type LargeShot } from './context'
import type { ReplayT } from './i18n'
import type { Replay, ReplayDecision, ReplayItem, ReplayWrite } from './model'
import { Lightbox } from './Shot'
import { DecisionItem, StepItem } from './StepItem'
import { describeRequest, describeRule, describeWhere } from './write'

const REFUSALS = ['rejected', 'canceled', 'paused', 'ended', 'lost'] as const

/** A request the write barrier held, let go, refused, dropped or let through by the person's standing rule: where it went and what it carried, by name. */
function WriteItem({ write }: { write: ReplayWrite }) {
  const { t, lang } = useReplayContext()
  const refusal = write.outcome === 'refused' ? REFUSALS.find((r) => r === write.reason) : undefined
  const why =
    write.outcome === 'held' && write.reason ? t('writeHeldWhy', { reason: write.reason }) : refusal ? t(`refused_${refusal}`) : undefined
  const tone =
    write.outcome === 'released' || write.outcome === 'allowed' ? 'risk-low' : write.outcome === 'dropped' || write.outcome === 'harmless' ? 'muted' : 'risk-high'
  const headline =
    write.outcome === 'harmless'
      ? t('write_harmless', { what: write.kind ? t(`harmless_${write.kind}`) : write.request.method, where: describeWhere(write.request) })
      : write.outcome === 'allowed' && write.scope === 'task'
        ? t('write_allowedTask', { request: describeRequest(write.request) })
        : t(`write_${write.outcome}`, { request: describeRequest(write.request) })
  return (
    <li class={`note write write-${write.outcome}`} data-write={write.outcome} data-action={write.actionId} data-scope={write.scope}>
      <div>
        <span class="muted">{formatTime(write.at, lang)}</span> <strong class={tone}>{headline}</strong>
      </div>
      {write.rule && <div class="muted" data-rule>{t('writeRule', { rule: describeRule(write.rule) })}</div>}
      {(why || write.by) && (
        <div class="muted">
          {[why, write.by ? t('writeBy', { by: write.byPanel ? t('byYouInPanel') : write.by === 'api' ? t('byApi') : t('byClient', { id: write.by.length > 12 ? `${write.by.slice(0, 10)}…` : write.by }) }) : undefined]
            .filter(Boolean)
            .join(' · ')}
        </div>
      )}
    </li>
  )
}

export interface ReplayViewProps {
  replay: Replay
  /** The verdict on the audit chain; absent when nobody checked it. */
  verified?: VerifyResult | null
  t: ReplayT
  lang: Lang
  image: ImageSource
  /** Buttons or notes shown under the heading (the console's download and save-as-skill). */
  actions?: ComponentChildren
}

/** A script's "run the next step" says nothing its steps do not; decisions with a goal, a cost or an end do. */
/** The task's browser as a person names it ("Chrome 131 on Linux"), its id kept short beside it. */
function clientName(replay: Replay, t: ReplayT, lang: Lang): string {
  const id = replay.clientId!.length > 12 ? `${replay.clientId!.slice(0, 10)}…` : replay.clientId!
  const name = describeBrowser(replay.clientAgent, lang)
  return name ? t('clientNamed', { name, id }) : t('clientBrowser', { id })
}

const tellsSomething = (d: ReplayDecision) => d.kind !== 'act' || d.planner !== 'script' || !!(d.nextGoal || d.usage || d.error || d.thinking)

function TimelineItem({ item }: { item: ReplayItem }) {
  const { t, lang } = useReplayContext()
  switch (item.kind) {
    case 'step':
      return <StepItem step={item.step} />
    case 'decision':
      return tellsSomething(item.decision) ? <DecisionItem decision={item.decision} /> : null
    case 'question':
      return (
        <li class="question" data-question>
          <div>
            <strong>{t('question')}{t('colon')}</strong> {item.question.question} <span class="muted">{formatTime(item.question.askedAt, lang)}</span>
          </div>
          <div>
            <strong>{t('answer')}{t('colon')}</strong> {item.question.answer ?? <span class="muted">{t('unanswered')}</span>}
          </div>
        </li>
      )
    case 'pause':
      return (
        <li class="pause" data-pause>
          {t('paused', { at: formatTime(item.pause.at, lang) })}
          {item.pause.reason && ` — ${item.pause.reason}`}
          {item.pause.resumedAt && `; ${t('resumed', { at: formatTime(item.pause.resumedAt, lang) })}`}
        </li>
      )
    case 'dropped':
      return <li class="note muted">{t('dropped', { n: item.count, reason: item.reason ?? '' })}</li>
    case 'write':
      return <WriteItem write={item.write} />
    case 'unknown':
      return (
        <li class="note muted" data-unknown={item.event.type}>
          {item.event.problem ? t('malformedEvent', { type: item.event.type, problem: item.event.problem }) : t('unknownEvent', { type: item.event.type })}
        </li>
      )
    case 'canceled':
      return (
        <li class="note step-error">
          {item.by ? t('canceledBy', { at: formatTime(item.at, lang), who: principalName(lang, item.by) }) : t('canceled', { at: formatTime(item.at, lang) })}
          {item.reason && ` — ${item.reason}`}
        </li>
      )
  }
}

function Chain({ verified, t }: { verified?: VerifyResult | null; t: ReplayT }) {
  if (!verified) return <span class="badge chain chain-unknown muted">{t('chainUnknown')}</span>
  if (verified.ok) return <span class="badge chain chain-ok risk-low" data-chain="ok">{t('chainOk', { n: verified.count })}</span>
  return (
    <span class="badge chain chain-broken risk-high" data-chain="broken">
      {t('chainBroken', { line: verified.problem?.line ?? '?', reason: verified.problem?.reason ?? '' })}
    </span>
  )
}

/** A whole task, replayed from its audit: the same view in the console and in the exported replay.html. */
export function ReplayView({ replay, verified, t, lang, image, actions }: ReplayViewProps) {
  const [large, setLarge] = useState<LargeShot | null>(null)
  const close = useCallback(() => setLarge(null), [])
  const context = useMemo(() => ({ t, lang, image, showLarge: setLarge, say: (text: string) => inReaderLang(text, replay.wordsZh, lang) }), [t, lang, image, replay.wordsZh])
  const { totals: n, result, error } = replay
  const u = n.usage
  const shown = replay.status ? statusOf(lang, replay.status, error, replay.canceledBy) : undefined
  const byYou = shown?.tone === 'by-you'
  return (
    <ReplayContext.Provider value={context}>
      <article class="replay" data-task={replay.taskId}>
        <header class="replay-head card">
          <div class="row">
            <h1 class="replay-goal">{replay.goal || t('replayOf', { id: replay.taskId })}</h1>
            {replay.status && shown && (
              <span class={`badge status-${shown.tone}`} data-status={replay.status}>
                {shown.words}
              </span>
            )}
            <Chain verified={verified} t={t} />
          </div>
          <dl class="facts">
            <dt>{t('mode')}</dt>
            <dd>{replay.mode === 'script' ? t('modeScript') : replay.mode === 'llm' ? t('modeLlm') : replay.mode === 'mcp' ? t('modeMcp') : (replay.mode ?? '—')}</dd>
            {replay.startUrl && [<dt>{t('startUrl')}</dt>, <dd class="url">{replay.startUrl}</dd>]}
            {replay.skill && [<dt>{t('skill')}</dt>, <dd data-skill-name>{skillWords(inReaderLang(replay.skillName ?? replay.skill, replay.wordsZh, lang), undefined, lang)}</dd>]}
            {replay.clientId && [<dt>{t('client')}</dt>, <dd title={replay.clientId}>{clientName(replay, t, lang)}</dd>]}
            <dt>{t('created')}</dt>
            <dd>{formatTime(replay.createdAt, lang)}</dd>
            {replay.finishedAt && [<dt>{t('finished')}</dt>, <dd>{formatTime(replay.finishedAt, lang)}</dd>]}
          </dl>
          {actions && <div class="row">{actions}</div>}
        </header>

        {(result || error) && (
          <section class={`card replay-result ${result?.success ? 'ok' : byYou ? 'by-you' : 'bad'}`} data-result>
            <h2>{t(byYou ? 'resultByYou' : 'result')}</h2>
            {result && <p>{describeResult(result, lang)}</p>}
            {result?.data !== undefined && <pre>{JSON.stringify(result.data, null, 2)}</pre>}
            {error && byYou && <p data-code={error.code}>{describeError(error, lang)}</p>}
            {error && byYou && typeof error.details?.reason === 'string' && <p class="muted">{t('confirmReason', { reason: error.details.reason })}</p>}
            {error && !byYou && (
              <p class="step-error" data-code={error.code} title={error.message}>
                {describeError(error, lang)} <span class="error-code muted">{t('errorCode', { code: error.code })}</span>
              </p>
            )}
          </section>
        )}

        <section class="card replay-totals" data-totals>
          <h2>{t('totals')}</h2>
          <div class="row">
            <span>{t(n.steps === 1 ? 'totalStepsOne' : 'totalSteps', { n: n.steps })}</span>
            <span class="risk-low">{t('totalDone', { n: n.done })}</span>
            {n.failed > 0 && <span class="risk-high">{t('totalFailed', { n: n.failed })}</span>}
            {n.rejected > 0 && <span>{t('totalRejected', { n: n.rejected })}</span>}
            {n.confirmations > 0 && <span>{t(n.confirmations === 1 ? 'totalConfirmationsOne' : 'totalConfirmations', { n: n.confirmations, approved: n.approved })}</span>}
            <span>{t('totalScreenshots', { n: n.screenshots })}</span>
            {n.errors > 0 && <span class="risk-high">{t('totalErrors', { n: n.errors })}</span>}
            <span>{t('totalDuration', { seconds: seconds(n.durationMs) })}</span>
          </div>
          {u.llmCalls > 0 && (
            <div data-usage>
              {t('totalLlm', { calls: u.llmCalls, tokens: u.totalTokens, prompt: u.promptTokens, completion: u.completionTokens, seconds: seconds(u.latencyMs) })}
            </div>
          )}
        </section>

        <section class="replay-timeline">
          <h2>{t('timeline')}</h2>
          {replay.timeline.length === 0 ? (
            <p class="muted">{t('noSteps')}</p>
          ) : (
            <ol class="timeline">
              {replay.timeline.map((item, i) => (
                <TimelineItem key={i} item={item} />
              ))}
            </ol>
          )}
          {Object.keys(replay.unknown).length > 0 && (
            <p class="muted">{t('unknownEvents', { list: Object.entries(replay.unknown).map(([k, v]) => `${k} ×${v}`).join(', ') })}</p>
          )}
          {Object.keys(replay.malformed).length > 0 && (
            <p class="muted" data-malformed>{t('malformedEvents', { list: Object.entries(replay.malformed).map(([k, v]) => `${k} ×${v}`).join(', ') })}</p>
          )}
        </section>
      </article>
      {large && <Lightbox shot={large} onClose={close} />}
    </ReplayContext.Provider>
  )
}
