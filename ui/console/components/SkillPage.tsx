import { skillInLang, skillWords } from '#protocol'
import { replayTranslator } from '../../replay/i18n'
import { useConsole } from '../context'
import { hrefOf } from '../route'

/** One skill opened to read: what it is for, where it starts, what it asks for, and its SKILL.md procedure. */
export function SkillPage({ slug }: { slug: string }) {
  const { store, t, lang } = useConsole()
  const rt = replayTranslator(lang)
  const skill = store.openSkill.value?.slug === slug ? store.openSkill.value : null
  return (
    <section class="skill-page" data-skill-page={slug}>
      <p>
        <a href={hrefOf({ page: 'skills' })}>{t('skillBack')}</a>
      </p>
      {store.skillsError.value && !skill && (
        <p class="error" role="alert">
          {store.skillsError.value}
        </p>
      )}
      {!skill ? (
        !store.skillsError.value && <p class="muted">{t('skillsLoading')}</p>
      ) : (
        <article class="card skill">
          <div class="row">
            <h2 class="skill-name">{skillWords(skillInLang(skill, lang).name, skill.parameters, lang)}</h2>
            <span class={`badge risk-${skill.risk}`}>{rt(`risk_${skill.risk}`)}</span>
            <span class={`badge ${skill.script?.length ? 'scripted' : 'guided'}`} data-scripted={String(!!skill.script?.length)}>
              {skill.script?.length ? t('scripted') : t('notScripted')}
            </span>
            {skill.own && <span class="badge own">{t('skillOwn')}</span>}
          </div>
          <p>{skillWords(skillInLang(skill, lang).description, skill.parameters, lang)}</p>
          <p class="muted">{t('sites', { list: skill.sites.length ? skill.sites.join(', ') : t('anySite') })}</p>
          {skill['start-url'] && <p class="muted">{t('skillStartsAt', { url: skill['start-url'] })}</p>}
          {skill.parameters?.length ? <p data-testid="skill-asks">{t('skillAsks', { list: skill.parameters.map((p) => p.label).join(lang === 'zh-CN' ? '、' : ', ') })}</p> : null}
          {skill.script?.length ? <p class="muted">{t('skillScript', { count: skill.script.length })}</p> : null}
          <h3>{t('skillFile')}</h3>
          <pre class="skill-body" data-testid="skill-body">
            {skillWords(skill.body, skill.parameters, lang)}
          </pre>
        </article>
      )}
    </section>
  )
}
