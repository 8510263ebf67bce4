import { describe, expect, it } from 'vitest'
import { describeNavigationFailure, describeSiteRefused, NavigationFailure, navigationFailureReason, ObservationError, type NavigationFailure as Failure } from '#protocol'

describe('navigationFailureReason: Chrome network errors as a person would tell them apart', () => {
  it.each([
    ['net::ERR_NAME_NOT_RESOLVED', 'dns'],
    ['net::ERR_NAME_RESOLUTION_FAILED', 'dns'],
    ['net::ERR_DNS_TIMED_OUT', 'dns'],
    ['net::ERR_CONNECTION_REFUSED', 'refused'],
    ['net::ERR_CONNECTION_TIMED_OUT', 'timeout'],
    ['net::ERR_TIMED_OUT', 'timeout'],
    ['net::ERR_CERT_AUTHORITY_INVALID', 'other'],
    ['net::ERR_CONNECTION_RESET', 'other'],
    ['net::ERR_ABORTED', null],
    ['net::ERR_BLOCKED_BY_CLIENT', null],
  ])('%s → %s', (error, reason) => {
    expect(navigationFailureReason(error)).toBe(reason)
  })
})

const cases: [Failure, string, string][] = [
  [
    { reason: 'dns', url: 'http://nowhere.invalid/x', netError: 'net::ERR_NAME_NOT_RESOLVED' },
    'The site nowhere.invalid could not be found: its name does not resolve. Check the address.',
    '找不到网站 nowhere.invalid：这个名字无法解析。请检查网址是否写对。',
  ],
  [
    { reason: 'refused', url: 'http://127.0.0.1:9/', netError: 'net::ERR_CONNECTION_REFUSED' },
    '127.0.0.1:9 refused the connection: nothing answers at that address. The site may be down, or the port wrong.',
    '127.0.0.1:9 拒绝了连接：这个地址上没有服务在响应。网站可能没有运行，或端口不对。',
  ],
  [
    { reason: 'http-status', url: 'https://shop.example/gone', status: 404 },
    'https://shop.example/gone answered with HTTP 404 (not found): the page is not there.',
    'https://shop.example/gone 返回了错误 HTTP 404（页面不存在），页面没有打开。',
  ],
  [
    { reason: 'http-status', url: 'https://shop.example/', status: 418 },
    'https://shop.example/ answered with HTTP 418: the page is not there.',
    'https://shop.example/ 返回了错误 HTTP 418，页面没有打开。',
  ],
  [
    { reason: 'timeout', url: 'https://slow.example/', netError: 'net::ERR_TIMED_OUT' },
    'slow.example did not answer in time: the page did not open.',
    'slow.example 没有及时响应，页面没有打开。',
  ],
  [
    { reason: 'invalid-url', url: 'not a url', problem: 'spaces' },
    '“not a url” cannot be opened. A web address has no spaces. Enter one such as example.com, localhost:3000 or https://example.com/page.',
    '“not a url”无法打开。网址中不能有空格。请输入例如 example.com、localhost:3000 或 https://example.com/page 的网址。',
  ],
  [
    { reason: 'other', url: 'https://bad-cert.example/', netError: 'net::ERR_CERT_AUTHORITY_INVALID' },
    'https://bad-cert.example/ could not be opened (net::ERR_CERT_AUTHORITY_INVALID).',
    '无法打开 https://bad-cert.example/（net::ERR_CERT_AUTHORITY_INVALID）。',
  ],
]

describe('describeNavigationFailure', () => {
  it.each(cases)('%j in English and Chinese', (details, en, zh) => {
    expect(NavigationFailure.parse(details)).toEqual(details)
    expect(describeNavigationFailure(details, 'en-GB')).toBe(en)
    expect(describeNavigationFailure(details, 'zh-CN')).toBe(zh)
  })

  it('travels on an observation error of code NAVIGATION_FAILED', () => {
    const error = { code: 'NAVIGATION_FAILED', message: 'x', details: { reason: 'http-status', url: 'https://a.example/', status: 500 } }
    expect(ObservationError.parse(error)).toEqual(error)
    expect(ObservationError.safeParse({ ...error, details: { reason: 'teapot' } }).success).toBe(false)
  })
})

describe('describeSiteRefused', () => {
  it('says the site is off limits for the task, in both languages', () => {
    expect(describeSiteRefused('https://evil.example', 'en')).toBe('You did not allow https://evil.example in this task, so Tandem does not go there.')
    expect(describeSiteRefused('https://evil.example', 'zh-CN')).toBe('你在这个任务里没有允许 https://evil.example，Tandem 不会去那里。')
  })
})
