import { skillInLang, skillNameIn, skillWords } from '#protocol'
import type { PanelStore } from '../lib/panel/store'

/** Search the skill library and pick one procedure for the task to follow. */
export function SkillPicker({ store }: { store: PanelStore }) {
  const { t, newTask, lang } = store
  const picked = newTask.draft.value.skill
  if (picked) {
    return (
      <>
        <div class="row skill-picked" data-testid="skill">
          <span>
            {t('start.skillPicked', { name: skillWords(skillNameIn(picked, lang), picked.parameters, lang) })}
            {picked.scripted && (
              <span class="skill-mode" data-testid="skill-scripted">
                {t('start.skillScripted')}
              </span>
            )}
          </span>
          <button type="button" onClick={() => newTask.clearSkill()}>
            {t('start.skillClear')}
          </button>
        </div>
        {picked.parameters && picked.parameters.length > 0 && <SkillParams store={store} />}
      </>
    )
  }
  const results = newTask.skillResults.value
  return (
    <div class="skill-search" data-testid="skill">
      <label>
        {t('start.skill')}
        <input
          name="skill"
          type="search"
          placeholder={t('start.skillSearch')}
          value={newTask.skillQuery.value}
          onInput={(e) => void newTask.searchSkills(e.currentTarget.value)}
        />
      </label>
      {results && results.length === 0 && <p class="muted">{t('start.skillNone')}</p>}
      {results && results.length > 0 && (
        <ul class="skill-results" data-testid="skill-results">
          {results.map((skill) => (
            <li key={skill.slug}>
              <button type="button" class="skill-option" onClick={() => newTask.pickSkill(skill)}>
                <strong>{skillWords(skillInLang(skill, lang).name, skill.parameters, lang)}</strong>
                <span class={`badge risk-${skill.risk}`}>{t(`risk.${skill.risk}`)}</span>
                <span class="muted">{skillWords(skillInLang(skill, lang).description, skill.parameters, lang)}</span>
                {skill.scripted && <span class="skill-mode">{t('start.skillScripted')}</span>}
                {skill.own && (
                  <span class="skill-mode" data-testid="skill-own">
                    {t('start.skillOwn')}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** The picked skill's parameters: one plain field each, filled in for this run only. */
function SkillParams({ store }: { store: PanelStore }) {
  const { t, newTask, lang } = store
  const parameters = newTask.draft.value.skill?.parameters ?? []
  return (
    <fieldset class="skill-params" data-testid="skill-params">
      <legend>{t('start.params')}</legend>
      <p class="hint muted">{t('start.paramsHint')}</p>
      {parameters.map((p) => (
        <label key={p.name}>
          {p.label}
          <input
            name={`param-${p.name}`}
            autoComplete="off"
            maxLength={4000}
            value={newTask.params.value[p.name] ?? ''}
            onInput={(e) => newTask.setParam(p.name, e.currentTarget.value)}
          />
        </label>
      ))}
    </fieldset>
  )
}
