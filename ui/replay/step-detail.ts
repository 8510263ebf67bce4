import { str } from './draft'

/** What an action carries besides its target, as a person would say it. */
export function detailOf(type: string, params: Record<string, unknown>): string | undefined {
  const sensitive = params.sensitive === true
  switch (type) {
    case 'navigate':
      return str(params.url)
    case 'type': {
      const text = typeof params.text === 'string' ? params.text : undefined
      if (text === undefined) return undefined
      return sensitive ? '••••••' : JSON.stringify(text) + (params.submit === true ? ' ⏎' : '')
    }
    case 'select':
      return str(params.option)
    case 'press':
      return str(params.keys)
    case 'scroll':
      return str(params.direction)
    case 'drag':
      return params.to === undefined ? undefined : `→ [${String(params.to)}]`
    case 'waitFor':
      return str(params.text) ?? (str(params.urlIncludes) ? `URL ∋ ${params.urlIncludes}` : str(params.selector))
    case 'extract':
      return str(params.instruction)
    default:
      return undefined
  }
}
