import type { Action } from '#protocol'
import type { PrivacyDeps } from './task-redaction'

/**
 * The action as the extension gets it: the only place secret values are filled in, and the kinds of personal
 * data the server hides, so the extension masks the same ones in its screenshots.
 */
export function actionForExtension(deps: PrivacyDeps): (action: Action) => Action {
  const withSecrets = (action: Action): Action => {
    const text = action.params.text
    if (!deps.secrets || typeof text !== 'string' || !text.includes('{{secret:')) return action
    return { ...action, params: { ...action.params, text: deps.secrets.substitute(text), sensitive: true } }
  }
  const redactSettings = deps.redact?.emails || deps.redact?.phones ? { ...deps.redact } : undefined
  const withRedactSettings = (action: Action): Action => (redactSettings ? { ...action, redact: redactSettings } : action)
  return (action) => withRedactSettings(withSecrets(action))
}
