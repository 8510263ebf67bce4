import type { Principal } from '#protocol'
import type { Lang } from './i18n'

const WORDS = {
  en: { panel: 'you, in the side panel', console: 'you, in the console', api: 'your API token', canceledBy: 'Canceled by {who}' },
  'zh-CN': { panel: '你（在侧边栏中）', console: '你（在控制台中）', api: '你的 API 令牌', canceledBy: '已由 {who} 取消' },
} satisfies Record<Lang, Record<string, string>>

/**
 * Who did something, as the panel, the console and the replay name them: the person by where they were, an agent
 * by the name its token was given and the MCP client it connected with ("Claude Code (claude-code)").
 */
export function principalName(lang: Lang, p: Principal): string {
  if (p.kind === 'owner') return WORDS[lang][p.via]
  return p.client && p.client !== p.name ? `${p.name} (${p.client})` : p.name
}

/** "Canceled by Claude Code": a task someone other than the person ended. */
export const canceledByWords = (lang: Lang, p: Principal): string => WORDS[lang].canceledBy.replace('{who}', principalName(lang, p))
