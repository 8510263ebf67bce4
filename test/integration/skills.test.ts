import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorEnvelope, SkillSearchResult } from '#protocol'
import { startServer, type TestServer } from '../support/server'

let server: TestServer
beforeAll(async () => {
  server = await startServer({ env: { TANDEM_SKILLS_DIR: resolve('skills') } })
})
afterAll(() => server.close())

describe('GET /api/skills/search', () => {
  it('ranks skills for Chinese, English and mixed queries', async () => {
    for (const [q, slug] of [
      ['github 提交 issue', 'github-file-issue'],
      ['发送邮件', 'webmail-send-email'],
      ['compare prices', 'compare-prices'],
    ]) {
      const res = await server.api('GET', `/api/skills/search?q=${encodeURIComponent(q)}&limit=3`)
      expect(res.status).toBe(200)
      const results = res.body.data.map((r: unknown) => SkillSearchResult.parse(r))
      expect(results[0].slug, q).toBe(slug)
      expect(results.length).toBeLessThanOrEqual(3)
    }
  })

  it('filters by site', async () => {
    const res = await server.api('GET', `/api/skills/search?site=${encodeURIComponent('https://www.taobao.com/')}`)
    expect(res.body.data.map((r: { slug: string }) => r.slug)).toContain('ecommerce-compare-zh')
  })

  it('returns one skill with its procedure', async () => {
    const res = await server.api('GET', '/api/skills/login-safely')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ slug: 'login-safely', risk: 'high' })
    expect(res.body.data.body).toContain('{{secret:NAME}}')
    const missing = await server.api('GET', '/api/skills/no-such-skill')
    expect(ErrorEnvelope.parse(missing.body).error.code).toBe('NOT_FOUND')
  })

  it('refuses bad queries with 400 envelopes and needs the token', async () => {
    for (const query of ['limit=0', 'limit=x', 'q=' + 'a'.repeat(600), 'surprise=1']) {
      const res = await server.api('GET', `/api/skills/search?${query}`)
      expect(res.status, query).toBe(400)
      expect(ErrorEnvelope.parse(res.body).error.code).toBe('BAD_REQUEST')
    }
    expect((await server.api('GET', '/api/skills/search?q=x', undefined, { token: null })).status).toBe(401)
    expect((await server.api('GET', '/api/skills/Bad..Slug')).status).toBe(400)
  })
})
