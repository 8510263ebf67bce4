import { createTranslator, pickLang } from '../../../ui/i18n'

const en = {
  ongoing: 'Tandem is acting here — use the page to take over',
  takeover: 'You are in control',
  resume: 'Resume',
  stop: 'Stop',
  label: 'Tandem',
}

const zh: Partial<typeof en> = {
  ongoing: 'Tandem 正在此页面操作 — 直接操作页面即可接管',
  takeover: '您已接管',
  resume: '恢复',
  stop: '停止',
}

/** The indicator's words in the browser's language (English or Simplified Chinese). */
export const indicatorText = (locale: string | undefined) => createTranslator({ en, 'zh-CN': zh }, pickLang(locale))
export type IndicatorText = ReturnType<typeof indicatorText>
