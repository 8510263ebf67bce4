import { useState } from 'preact/hooks'
import { useConsole } from '../context'

/** Asked once: the token then stays in this browser's localStorage. */
export function TokenForm() {
  const { store, t } = useConsole()
  const [value, setValue] = useState('')
  return (
    <form
      class="card token-form"
      onSubmit={(event) => {
        event.preventDefault()
        void store.connect(value)
      }}
    >
      <h2>{t('tokenTitle')}</h2>
      <p class="muted">{t('tokenHelp')}</p>
      <label>
        {t('tokenLabel')}
        {/* Not type=password: a token is no site login, and Chrome offers to save any password field it sees submitted. */}
        <input
          name="token"
          type="text"
          class="secret-field"
          autocomplete="off"
          autocapitalize="off"
          spellcheck={false}
          data-1p-ignore
          data-lpignore="true"
          required
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
        />
      </label>
      {store.authError.value && (
        <p class="error" role="alert">
          {store.authError.value}
        </p>
      )}
      <div class="row">
        <button type="submit" class="primary" disabled={store.checking.value}>
          {store.checking.value ? t('tokenChecking') : t('tokenSubmit')}
        </button>
      </div>
    </form>
  )
}
