import { createTranslator, pickLang } from '../../../ui/i18n'

const en = {
  ongoing: 'Tandem is working on this page — click, type or scroll to take over',
  takeover: 'You are in control',
  approval: 'Waiting for your approval in the Tandem side panel',
  question: 'Waiting for your answer in the Tandem side panel',
  resume: 'Resume',
  stop: 'Stop',
  label: 'Tandem',
}

const zh: Partial<typeof en> = {
  ongoing: 'Tandem 正在操作此页面 — 点击、输入或滚动即可接管',
  takeover: '你已接管',
  approval: '正在等你在 Tandem 侧边栏中批准',
  question: '正在等你在 Tandem 侧边栏中回答',
  resume: '继续',
  stop: '停止',
}

/** The indicator's words in the browser's language (English or Simplified Chinese). */
export const indicatorText = (locale: string | undefined) => createTranslator({ en, 'zh-CN': zh }, pickLang(locale))
export type IndicatorText = ReturnType<typeof indicatorText>
