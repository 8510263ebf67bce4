import { z } from 'zod'
import { describeAddressProblem, type AddressProblem } from './web-address'

/**
 * Why a navigate step did not bring up the page it was sent to (code NAVIGATION_FAILED): the name did not resolve
 * (`dns`), nothing answered at that address (`refused`), the site answered with an HTTP error (`http-status`,
 * with the `status`), it did not answer in time (`timeout`), the address was not one (`invalid-url`, checked
 * before anything ran), or another network error (`other`, with Chrome's `net::ERR_…` name).
 */
export const NavigationFailureReason = z.enum(['dns', 'refused', 'http-status', 'timeout', 'invalid-url', 'other'])
export type NavigationFailureReason = z.infer<typeof NavigationFailureReason>

export const NavigationFailure = z.strictObject({
  reason: NavigationFailureReason,
  /** The address the step was sent to. */
  url: z.string().max(8192).optional(),
  /** For `http-status`: the status the page answered with (404, 500…). */
  status: z.number().int().min(100).max(999).optional(),
  /** Chrome's name for the network error, such as net::ERR_NAME_NOT_RESOLVED. */
  netError: z.string().max(100).optional(),
  /** For `invalid-url`: what is wrong with the address (see parseWebAddress). */
  problem: z.enum(['empty', 'spaces', 'scheme', 'host']).optional(),
})
export type NavigationFailure = z.infer<typeof NavigationFailure>

/** The reason Chrome's network error stands for. Aborted and client-blocked loads are not failures of the site. */
export function navigationFailureReason(netError: string): NavigationFailureReason | null {
  const name = netError.replace(/^net::/, '')
  if (name === 'ERR_ABORTED' || name === 'ERR_BLOCKED_BY_CLIENT') return null
  if (/^ERR_(NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|DNS_)/.test(name)) return 'dns'
  if (name === 'ERR_CONNECTION_REFUSED') return 'refused'
  if (name === 'ERR_CONNECTION_TIMED_OUT' || name === 'ERR_TIMED_OUT') return 'timeout'
  return 'other'
}

/** HTTP answers at or above this mean the page the step was sent to is not there. */
export const isFailedStatus = (status: number) => status >= 400

const STATUS_EN: Record<number, string> = {
  400: 'bad request',
  401: 'sign-in required',
  403: 'forbidden',
  404: 'not found',
  410: 'gone',
  429: 'too many requests',
  500: 'server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
}
const STATUS_ZH: Record<number, string> = {
  400: '请求无效',
  401: '需要登录',
  403: '禁止访问',
  404: '页面不存在',
  410: '页面已删除',
  429: '请求过多',
  500: '服务器错误',
  502: '网关错误',
  503: '服务不可用',
  504: '网关超时',
}

const hostOf = (url: string | undefined) => {
  if (!url || !URL.canParse(url)) return url ?? ''
  return new URL(url).host
}

/** What went wrong, in the reader's language ('zh…' reads Chinese, anything else English). */
export function describeNavigationFailure(details: NavigationFailure, lang: string): string {
  const zh = lang.toLowerCase().startsWith('zh')
  const host = hostOf(details.url)
  const url = details.url ?? ''
  switch (details.reason) {
    case 'dns':
      return zh ? `找不到网站 ${host}：这个名字无法解析。请检查网址是否写对。` : `The site ${host} could not be found: its name does not resolve. Check the address.`
    case 'refused':
      return zh
        ? `${host} 拒绝了连接：这个地址上没有服务在响应。网站可能没有运行，或端口不对。`
        : `${host} refused the connection: nothing answers at that address. The site may be down, or the port wrong.`
    case 'http-status': {
      const status = details.status ?? 0
      const label = (zh ? STATUS_ZH : STATUS_EN)[status]
      return zh
        ? `${url} 返回了错误 HTTP ${status}${label ? `（${label}）` : ''}，页面没有打开。`
        : `${url} answered with HTTP ${status}${label ? ` (${label})` : ''}: the page is not there.`
    }
    case 'timeout':
      return zh ? `${host} 没有及时响应，页面没有打开。` : `${host} did not answer in time: the page did not open.`
    case 'invalid-url':
      return zh
        ? `“${url}”无法打开。${describeAddressProblem((details.problem ?? 'host') as AddressProblem, 'zh-CN')}`
        : `“${url}” cannot be opened. ${describeAddressProblem((details.problem ?? 'host') as AddressProblem, 'en')}`
    case 'other':
      return zh ? `无法打开 ${url}（${details.netError ?? '网络错误'}）。` : `${url} could not be opened (${details.netError ?? 'network error'}).`
  }
}
