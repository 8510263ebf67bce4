import { describe, expect, it } from 'vitest'
import { browserName, describeBrowser } from '#protocol'

const UA = {
  chromeLinux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  headless: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.7444.59 Safari/537.36',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
  chromeMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  curl: 'curl/8.5.0',
}

describe('a browser as a person names it', () => {
  it('reads the browser, its major version and the system from a User-Agent, most specific first', () => {
    expect(browserName(UA.chromeLinux)).toEqual({ browser: 'Chrome', version: '131', os: 'Linux' })
    expect(browserName(UA.headless)).toEqual({ browser: 'Chrome', version: '142', os: 'Linux' })
    expect(browserName(UA.edgeWindows)).toEqual({ browser: 'Edge', version: '131', os: 'Windows' })
    expect(browserName(UA.chromeMac)).toEqual({ browser: 'Chrome', version: '130', os: 'macOS' })
    expect(browserName(UA.safariIphone)).toEqual({ browser: 'Safari', version: '17', os: 'iOS' })
    expect(browserName(UA.chromeAndroid)).toEqual({ browser: 'Chrome', version: '131', os: 'Android' })
  })

  it('says it in English and Chinese, and nothing for what is not a browser', () => {
    expect(describeBrowser(UA.chromeLinux, 'en')).toBe('Chrome 131 on Linux')
    expect(describeBrowser(UA.edgeWindows, 'zh-CN')).toBe('Windows 上的 Edge 131')
    expect(describeBrowser(UA.curl, 'en')).toBeUndefined()
    expect(describeBrowser(undefined, 'en')).toBeUndefined()
  })
})
