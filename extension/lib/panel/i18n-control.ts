import type { PanelT } from './i18n'

/** What the panel says about who controls the task (pause, resume, cancel, a takeover), in English and Chinese. */
export const controlEn = {
  'controls.pause': 'Pause (take over)',
  'controls.resume': 'Resume',
  'controls.cancel': 'Cancel task',
  'controls.export': 'Export audit (zip)',
  'controls.paused': 'Paused. The page is yours until you resume.',
  'controls.resumed': 'Resumed.',
  'controls.canceled': 'Canceled.',
  'controls.exported': 'Audit exported.',
  'takeover.notice': 'You took over ({how}). Tandem waits; press Resume when you are done.',
  'takeover.pointer': 'you clicked in the page',
  'takeover.key': 'you typed in the page',
  'takeover.wheel': 'you scrolled the page',
  'takeover.touch': 'you touched the page',
  'takeover.other': 'you acted in the page',
}

export const controlZh: Record<keyof typeof controlEn, string> = {
  'controls.pause': '暂停（接管）',
  'controls.resume': '继续',
  'controls.cancel': '取消任务',
  'controls.export': '导出审计记录（zip）',
  'controls.paused': '已暂停。在你点击继续之前，页面由你操作。',
  'controls.resumed': '已继续。',
  'controls.canceled': '已取消。',
  'controls.exported': '审计记录已导出。',
  'takeover.notice': '你已接管（{how}）。Tandem 正在等待；完成后请按“继续”。',
  'takeover.pointer': '你点击了页面',
  'takeover.key': '你在页面中输入了内容',
  'takeover.wheel': '你滚动了页面',
  'takeover.touch': '你触摸了页面',
  'takeover.other': '你操作了页面',
}

const INPUTS = ['pointer', 'key', 'wheel', 'touch'] as const

/** How the person took over, in words: `input` is the kind of input the page saw (pointer, key, wheel, touch). */
export const tookOverBy = (t: PanelT, input: string): string =>
  t((INPUTS as readonly string[]).includes(input) ? (`takeover.${input}` as `takeover.${(typeof INPUTS)[number]}`) : 'takeover.other')
