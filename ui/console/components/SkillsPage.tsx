import { useState } from 'preact/hooks'
import { skillInLang, skillWords } from '#protocol'
import { replayTranslator } from '../../replay/i18n'
import { useConsole } from '../context'
import { hrefOf } from '../route'

/** The skills library: all of it at first, then searched as the planner searches it; each skill opens to its SKILL.md. */
export function SkillsPage() {
  const { store, t, lang } = useConsole()
  const rt = replayTranslator(lang)
  const [query, setQuery] = useState('')
  const [site, setSite] = useState('')
  const results = store.skillResults.value
  return (
    <section class="skills">
      <h2>{t('skillsTitle')}</h2>
      <form
        class="row filters"
        onSubmit={(event) => {
          event.preventDefault()
          void store.searchSkills(query, site)
        }}
      >
        <label class="grow">
          {t('skillsQuery')}
          <input name="q" type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        </label>
        <label>
          {t('skillsSite')}
          <input name="site" value={site} placeholder="shop.example.com" onInput={(e) => setSite(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary">
          {t('skillsSearch')}
        </button>
      </form>
      {store.skillsError.value && (
        <p class="error" role="alert">
          {store.skillsError.value}
        </p>
      )}
      {results === null ? (
        <p class="muted">{t('skillsLoading')}</p>
      ) : results.length === 0 ? (
        <p class="muted">{t('skillsNone')}</p>
      ) : (
        <ul class="skill-list">
          {results.map((skill) => (
            <li class="card skill" key={skill.slug} data-skill={skill.slug}>
              <div class="row">
                <a class="skill-name" href={hrefOf({ page: 'skill', slug: skill.slug })}>
                  {skillWords(skillInLang(skill, lang).name, skill.parameters, lang)}
                </a>
                <span class={`badge risk-${skill.risk}`}>{rt(`risk_${skill.risk}`)}</span>
                <span class={`badge ${skill.scripted ? 'scripted' : 'guided'}`} data-scripted={String(skill.scripted)}>
                  {skill.scripted ? t('scripted') : t('notScripted')}
                </span>
                {skill.own && <span class="badge own" data-own="true">{t('skillOwn')}</span>}
              </div>
              <div>{skillWords(skillInLang(skill, lang).description, skill.parameters, lang)}</div>
              <div class="muted">{t('sites', { list: skill.sites.length ? skill.sites.join(', ') : t('anySite') })}</div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
