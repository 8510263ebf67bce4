import { describe, expect, it } from 'vitest'
import { checkSiteAccess, isServerPage } from '../lib/executor/site-access'

const SERVER = 'http://127.0.0.1:3000'
const granted = { contains: async () => true }

describe('the server pages a task may not act on', () => {
  it('refuses the console and the API under any loopback name, and allows only the demo page', async () => {
    for (const url of ['http://127.0.0.1:3000/console/', 'http://localhost:3000/api/info', 'http://127.0.0.1:3000/', 'http://127.0.0.1:3000/demo/../console/', 'http://127.0.0.1:3000/demo/x/../../console/']) {
      expect(isServerPage(new URL(url), SERVER), url).toBe(true)
      expect((await checkSiteAccess(granted, url, SERVER))?.code, url).toBe('INVALID_TASK_TAB')
    }
    for (const url of ['http://127.0.0.1:3000/demo/', 'http://localhost:3000/demo/index.html', 'http://127.0.0.1:3000/demo/?q=1']) {
      expect(isServerPage(new URL(url), SERVER), url).toBe(false)
      expect(await checkSiteAccess(granted, url, SERVER), url).toBeNull()
    }
    // Other files under /demo/ are not the page: only it is exempt.
    expect(isServerPage(new URL('http://127.0.0.1:3000/demo/demo.js'), SERVER)).toBe(true)
  })
})
