import { z } from 'zod'
import { Risk } from './action'

/**
 * Why the risk gate raised an action's risk, as data: the audit and the views keep these beside the English
 * sentences, so each reader can see them in their own language (describeRiskReason).
 */

/** What a high-risk label looks like it does. */
export const RiskKind = z.enum(['payment', 'sending', 'deletion', 'publishing', 'permission', 'money', 'signing', 'saving', 'download', 'code'])
export type RiskKind = z.infer<typeof RiskKind>

/** How a URL is reached: opened directly (navigate) or through a link that is clicked. */
export const UrlVia = z.enum(['open', 'link'])
export type UrlVia = z.infer<typeof UrlVia>

export const RiskReasonCode = z.enum([
  'label-high',
  'label-rules',
  'label-medium',
  'dangerous-scheme',
  'download-url',
  'url-rules-high',
  'url-rules-medium',
  'selector-rules-high',
  'selector-rules-medium',
  'submit-selector',
  'download-attr',
  'submit-form',
  /** A submit of a form that only asks for a page (GET): its address is what the barrier judges. */
  'submit-get-form',
  'form-action',
  'setting-toggle',
  'option-toggle',
  'credential-field',
  'secret',
  'submit-search',
  'submit-form-typed',
  'form-typing',
  'select-settings',
  'press-enter',
  'declared',
  'icon-high',
  'icon-medium',
  'dialog-high',
  'dialog-confirm',
  'generic-confirm',
  'press-send',
  'press-enter-message',
  'press-delete',
  /** The page sent a write while the step ran; the barrier held it before it left the browser. */
  'held-write',
  /** An upload step: a file from the person's upload folder goes to the site. */
  'upload-file',
  /** A drag that drops onto something that looks like it deletes, sends or pays (a trash can, "Send to…"). */
  'drop-high',
  /** A drag that drops onto something the person's rules mark as high-risk. */
  'drop-rules',
  /** A plan-first task's step on a site its approved plan does not name (`site`). */
  'off-plan-site',
  /** A plan-first task's risky step of a kind (`kind`) that nothing the approved plan sends covers. */
  'off-plan-send',
])
export type RiskReasonCode = z.infer<typeof RiskReasonCode>

// Lengths are generous bounds on what classifyRisk writes (labels are cut to 80), so a stored reason always parses.
export const RiskReason = z.object({
  code: RiskReasonCode,
  /** The element's name as a person reads it (label-*). */
  label: z.string().max(500).optional(),
  /** What a high-risk label, or a form's address (form-action), looks like it does. */
  kind: RiskKind.optional(),
  /** The word that matched (label-rules, label-medium). */
  keyword: z.string().max(500).optional(),
  /** The rules file's selector that matched (selector-rules-high). */
  selector: z.string().max(1000).optional(),
  /** The file a download URL names (download-url). */
  file: z.string().max(1000).optional(),
  /** The URL scheme, without its colon (dangerous-scheme). */
  scheme: z.string().max(100).optional(),
  via: UrlVia.optional(),
  /** The dialog a generic confirm button answers, its title and text cut short (dialog-*). */
  dialog: z.string().max(500).optional(),
  /** The declared risk (declared). */
  level: Risk.optional(),
  /** The held request's method, site and path (held-write). */
  method: z.string().max(16).optional(),
  site: z.string().max(500).optional(),
  path: z.string().max(1000).optional(),
})
export type RiskReason = z.infer<typeof RiskReason>

export type ReasonLang = 'en' | 'zh-CN'

const KINDS: Record<RiskKind, Record<ReasonLang, string>> = {
  payment: { en: 'a purchase or payment', 'zh-CN': '购买或付款' },
  sending: { en: 'sending something', 'zh-CN': '发送内容' },
  deletion: { en: 'deleting or cancelling something', 'zh-CN': '删除或取消某些内容' },
  publishing: { en: 'publishing something', 'zh-CN': '发布内容' },
  permission: { en: 'granting a permission or approval', 'zh-CN': '授予权限或批准' },
  money: { en: 'moving money', 'zh-CN': '转移资金' },
  signing: { en: 'signing a document', 'zh-CN': '签署文件' },
  saving: { en: 'saving or applying a change', 'zh-CN': '保存或应用更改' },
  download: { en: 'a download or install', 'zh-CN': '下载或安装' },
  code: { en: 'changing code or a deployment', 'zh-CN': '更改代码或部署' },
}

/** The kind of a high-risk label in words. */
export const describeRiskKind = (kind: RiskKind, lang: ReasonLang): string => KINDS[kind][lang]

const LEVELS: Record<Risk, string> = { low: '低', medium: '中', high: '高' }

const en = (r: RiskReason): string => {
  const what = r.via === 'link' ? 'follows a link to' : 'opens'
  const label = r.label ?? ''
  switch (r.code) {
    case 'label-high':
      return `clicks "${label}", which looks like ${r.kind ? KINDS[r.kind].en : 'something risky'}`
    case 'label-rules':
      return `clicks "${label}", which your rules mark as high-risk ("${r.keyword ?? ''}")`
    case 'label-medium':
      return `clicks "${label}" ("${r.keyword ?? ''}")`
    case 'dangerous-scheme':
      return `${what} a ${r.scheme ?? ''}: URL, which can run code or read local files`
    case 'download-url':
      return `${what} a file download (${r.file ?? ''})`
    case 'upload-file':
      return `uploads the file "${r.file ?? ''}" from your upload folder to the site`
    case 'url-rules-high':
      return `${what} a URL your rules mark as high-risk`
    case 'url-rules-medium':
      return `${what} a URL your rules mark as risky`
    case 'selector-rules-high':
      return `targets ${r.selector ?? ''}, which your rules mark as high-risk`
    case 'selector-rules-medium':
      return 'targets an element your rules mark as risky'
    case 'submit-selector':
      return 'clicks a submit button, which sends a form'
    case 'download-attr':
      return 'starts a download'
    case 'submit-get-form':
      return 'submits a form that asks for a page with what was entered (GET)'
    case 'submit-form':
      return 'submits a form, which sends what was entered'
    case 'form-action':
      return `presses a button in a form whose address looks like ${r.kind ? KINDS[r.kind].en : 'something risky'}`
    case 'setting-toggle':
      return 'changes a setting or permission'
    case 'option-toggle':
      return 'changes an option'
    case 'credential-field':
      return 'enters a password or payment detail'
    case 'secret':
      return 'enters a secret (a credential)'
    case 'submit-search':
      return 'types and submits a search'
    case 'submit-form-typed':
      return 'types and submits a form, which sends what was entered'
    case 'form-typing':
      return 'types into a form'
    case 'select-settings':
      return 'changes an option on a settings page'
    case 'press-enter':
      return 'presses Enter, which may submit a form'
    case 'held-write':
      return `the page tried to send ${r.method ?? ''} to ${r.site ?? ''}${r.path ?? ''} while the step ran; it was held before it left the browser`
    case 'declared':
      return `marked ${r.level ?? 'high'}-risk by the planner or the script`
    case 'icon-high':
      return `clicks an icon button ("${label}"), which looks like ${r.kind ? KINDS[r.kind].en : 'something risky'}`
    case 'icon-medium':
      return `clicks an icon button ("${label}")`
    case 'dialog-high':
      return `clicks "${label}" in a dialog that says "${r.dialog ?? ''}", which looks like ${r.kind ? KINDS[r.kind].en : 'something risky'}`
    case 'dialog-confirm':
      return `clicks "${label}" in a dialog that says "${r.dialog ?? ''}"`
    case 'generic-confirm':
      return `clicks "${label}", which confirms whatever is on screen`
    case 'press-send':
      return 'presses Ctrl/Cmd+Enter, which sends a message in most chat and mail apps'
    case 'press-enter-message':
      return 'presses Enter in a message box, which may send it'
    case 'press-delete':
      return 'presses Delete outside a text field, which may delete what is selected'
    case 'drop-high':
      return `drops onto "${label}", which looks like ${r.kind ? KINDS[r.kind].en : 'something risky'}`
    case 'drop-rules':
      return `drops onto "${label}", which your rules mark as high-risk ("${r.keyword ?? ''}")`
    case 'off-plan-site':
      return `works on ${r.site ?? ''}, a site the plan you approved does not name`
    case 'off-plan-send':
      return `looks like ${r.kind ? KINDS[r.kind].en : 'something risky'}, which the plan you approved does not say it will do`
  }
}

const zh = (r: RiskReason): string => {
  const link = r.via === 'link'
  const label = r.label ?? ''
  switch (r.code) {
    case 'label-high':
      return `点击“${label}”，看起来像${r.kind ? KINDS[r.kind]['zh-CN'] : '有风险的操作'}`
    case 'label-rules':
      return `点击“${label}”，你的规则将其标为高风险（“${r.keyword ?? ''}”）`
    case 'label-medium':
      return `点击“${label}”（“${r.keyword ?? ''}”）`
    case 'dangerous-scheme':
      return `${link ? '通过链接打开' : '打开'} ${r.scheme ?? ''}: 网址，它可能运行代码或读取本地文件`
    case 'download-url':
      return `${link ? '通过链接下载' : '打开并下载'}文件（${r.file ?? ''}）`
    case 'upload-file':
      return `把上传文件夹中的文件“${r.file ?? ''}”上传到网站`
    case 'url-rules-high':
      return `${link ? '通过链接打开' : '打开'}你的规则标为高风险的网址`
    case 'url-rules-medium':
      return `${link ? '通过链接打开' : '打开'}你的规则标为有风险的网址`
    case 'selector-rules-high':
      return `操作 ${r.selector ?? ''}，你的规则将其标为高风险`
    case 'selector-rules-medium':
      return '操作你的规则标为有风险的元素'
    case 'submit-selector':
      return '点击提交按钮，会发送表单'
    case 'download-attr':
      return '开始下载'
    case 'submit-get-form':
      return '提交一个用所填内容获取页面的表单（GET）'
    case 'submit-form':
      return '提交表单，会发送已填写的内容'
    case 'form-action':
      return `点击表单中的按钮，该表单的地址看起来像${r.kind ? KINDS[r.kind]['zh-CN'] : '有风险的操作'}`
    case 'setting-toggle':
      return '更改设置或权限'
    case 'option-toggle':
      return '更改选项'
    case 'credential-field':
      return '输入密码或支付信息'
    case 'secret':
      return '输入机密信息（凭据）'
    case 'submit-search':
      return '输入并提交搜索'
    case 'submit-form-typed':
      return '输入并提交表单，会发送已填写的内容'
    case 'form-typing':
      return '在表单中输入'
    case 'select-settings':
      return '在设置页面上更改选项'
    case 'press-enter':
      return '按回车键，可能会提交表单'
    case 'held-write':
      return `执行这一步时，页面试图向 ${r.site ?? ''}${r.path ?? ''} 发送 ${r.method ?? ''} 请求；请求在离开浏览器前被拦下`
    case 'declared':
      return `被规划器或脚本标为${LEVELS[r.level ?? 'high']}风险`
    case 'icon-high':
      return `点击图标按钮（“${label}”），看起来像${r.kind ? KINDS[r.kind]['zh-CN'] : '有风险的操作'}`
    case 'icon-medium':
      return `点击图标按钮（“${label}”）`
    case 'dialog-high':
      return `在内容为“${r.dialog ?? ''}”的对话框中点击“${label}”，看起来像${r.kind ? KINDS[r.kind]['zh-CN'] : '有风险的操作'}`
    case 'dialog-confirm':
      return `在内容为“${r.dialog ?? ''}”的对话框中点击“${label}”`
    case 'generic-confirm':
      return `点击“${label}”，会确认当前屏幕上的内容`
    case 'press-send':
      return '按 Ctrl/Cmd+回车键，在多数聊天和邮件应用中会发送消息'
    case 'press-enter-message':
      return '在消息输入框中按回车键，可能会发送消息'
    case 'press-delete':
      return '在文本框外按删除键，可能会删除选中的内容'
    case 'drop-high':
      return `拖放到“${label}”上，看起来像${r.kind ? KINDS[r.kind]['zh-CN'] : '有风险的操作'}`
    case 'drop-rules':
      return `拖放到“${label}”上，你的规则将其标为高风险（“${r.keyword ?? ''}”）`
    case 'off-plan-site':
      return `在 ${r.site ?? ''} 上操作，你批准的计划中没有这个网站`
    case 'off-plan-send':
      return `看起来像${r.kind ? KINDS[r.kind]['zh-CN'] : '有风险的操作'}，你批准的计划中没有说会这样做`
  }
}

/** One reason as a sentence in `lang`; the English one is what `reasons` (and PendingConfirmation.reasons) hold. */
export function describeRiskReason(reason: RiskReason, lang: ReasonLang): string {
  return lang === 'zh-CN' ? zh(reason) : en(reason)
}

/**
 * The reasons to show a reader: from the details in their language when there are any, else the English
 * sentences (an older audit, or a reason that came from elsewhere).
 */
export function riskReasonsIn(lang: ReasonLang, reasons: readonly string[], details?: readonly RiskReason[]): string[] {
  return details?.length ? details.map((d) => describeRiskReason(d, lang)) : [...reasons]
}
