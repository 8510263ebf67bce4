import { describe, expect, it } from 'vitest'
import { StartBody, describeAddressProblem, parseWebAddress, type AddressProblem } from '#protocol'

const accepted: [string, string][] = [
  ['example.com', 'https://example.com/'],
  ['  example.com/path?q=1  ', 'https://example.com/path?q=1'],
  ['https://example.com/page', 'https://example.com/page'],
  ['http://example.com', 'http://example.com/'],
  ['HTTPS://Example.COM/A', 'https://example.com/A'],
  ['example.com:8443/x', 'https://example.com:8443/x'],
  ['localhost', 'http://localhost/'],
  ['localhost:3000', 'http://localhost:3000/'],
  ['app.localhost:5173/x', 'http://app.localhost:5173/x'],
  ['127.0.0.1:8080/x', 'http://127.0.0.1:8080/x'],
  ['http://127.0.0.1:9/start', 'http://127.0.0.1:9/start'],
  ['[::1]:3000', 'http://[::1]:3000/'],
  ['shop.test', 'https://shop.test/'],
  ['例子.测试', 'https://xn--fsqu00a.xn--0zwm56d/'],
  ['https://例子.测试/页', 'https://xn--fsqu00a.xn--0zwm56d/%E9%A1%B5'],
  ['https://example.com/a b', 'https://example.com/a%20b'],
  ['www.example.co.uk.', 'https://www.example.co.uk./'],
]

const refused: [string, AddressProblem][] = [
  ['', 'empty'],
  ['   ', 'empty'],
  ['不是网址', 'host'],
  ['https://不是网址', 'host'],
  ['not a url', 'spaces'],
  ['go to example.com', 'spaces'],
  ['intranet', 'host'],
  ['http://intranet/', 'host'],
  ['example', 'host'],
  ['example.c', 'host'],
  ['example.123', 'host'],
  ['javascript:alert(1)', 'scheme'],
  ['file:///etc/passwd', 'scheme'],
  ['mailto:someone@example.com', 'scheme'],
  ['about:blank', 'scheme'],
  ['ftp://example.com/file', 'scheme'],
  ['chrome://settings', 'scheme'],
  ['data:text/html,hi', 'scheme'],
]

describe('parseWebAddress: what a person would call a web address', () => {
  it.each(accepted)('accepts %j as %s', (input, url) => {
    expect(parseWebAddress(input)).toEqual({ ok: true, url })
  })
  it.each(refused)('refuses %j (%s)', (input, problem) => {
    expect(parseWebAddress(input)).toEqual({ ok: false, problem })
  })
})

describe('describeAddressProblem', () => {
  it.each(['empty', 'spaces', 'scheme', 'host'] as AddressProblem[])('says %s with an example, in English and Chinese', (problem) => {
    const en = describeAddressProblem(problem, 'en-US')
    const zh = describeAddressProblem(problem, 'zh-CN')
    expect(en).toContain('example.com')
    expect(zh).toContain('example.com')
    expect(zh).toMatch(/[\u4e00-\u9fff]/)
    expect(zh).not.toMatch(/[\u4e00-\u9fff][,:;]/)
    expect(en).not.toMatch(/[\u4e00-\u9fff]/)
  })
})

describe('StartBody.startUrl follows the same rule', () => {
  it.each(accepted.filter(([input]) => /^https?:\/\//i.test(input)))('accepts %j', (input) => {
    expect(StartBody.safeParse({ goal: 'g', startUrl: input }).success).toBe(true)
  })
  it.each([['https://xn--ihq17txpmlpy'], ['https://不是网址'], ['javascript:alert(1)'], ['not a url'], ['http://intranet/']])('refuses %j', (input) => {
    const parsed = StartBody.safeParse({ goal: 'g', startUrl: input })
    expect(parsed.success).toBe(false)
    expect(parsed.error!.issues[0]!.message).toContain('example.com')
  })
})
