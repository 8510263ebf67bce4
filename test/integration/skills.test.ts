import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorEnvelope, Skill, SkillSearchResult, SkillSummary } from '#protocol'
import { startServer, type TestServer } from '../support/server'

let server: TestServer
beforeAll(async () => {
  server = await startServer({ env: { TANDEM_SKILLS_DIR: resolve('skills') } })
})
afterAll(() => server.close())

const search = async (query: string) => {
  const res = await server.api('GET', `/api/skills/search?${query}`)
  expect(res.status, query).toBe(200)
  expect(res.body.ok).toBe(true)
  return (res.body.data as unknown[]).map((r) => SkillSearchResult.parse(r))
}

describe('GET /api/skills/search', () => {
  it('ranks skills for Chinese, English and mixed queries', async () => {
    for (const [q, slug] of [
      ['github 提交 issue', 'github-file-issue'],
      ['发送邮件', 'webmail-send-email'],
      ['compare prices', 'compare-prices'],
      ['下载发票', 'invoice-download-zh'],
      ['Log In', 'login-safely'],
    ]) {
      const results = await search(`q=${encodeURIComponent(q)}&limit=3`)
      expect(results[0]?.slug, q).toBe(slug)
      expect(results.length).toBeLessThanOrEqual(3)
    }
  })

  it('says of each result whether it replays a script with no LLM', async () => {
    expect((await search('q=hacker%20news%20top%20stories&limit=3')).find((r) => r.slug === 'hacker-news-top-stories')?.scripted).toBe(true)
    expect((await search('q=log%20in&limit=3')).find((r) => r.slug === 'login-safely')?.scripted).toBe(false)
  })

  it('with a site and no query returns the skills for that site', async () => {
    const onTaobao = await search(`site=${encodeURIComponent('https://www.taobao.com/')}`)
    expect(onTaobao.map((r) => r.slug).sort()).toEqual(['ecommerce-compare-zh', 'invoice-download-zh'])
    const onGithub = await search('site=github.com&q=issue')
    expect(onGithub.map((r) => r.slug)).toEqual(['github-file-issue'])
    expect(await search('site=gitlab.com&q=issue')).toEqual([])
  })

  it('refuses bad queries with 400 envelopes and needs the token', async () => {
    for (const query of ['limit=0', 'limit=x', 'limit=51', `q=${'a'.repeat(600)}`, 'surprise=1']) {
      const res = await server.api('GET', `/api/skills/search?${query}`)
      expect(res.status, query).toBe(400)
      expect(ErrorEnvelope.parse(res.body).error.code).toBe('BAD_REQUEST')
    }
    expect((await server.api('GET', '/api/skills/search?q=x', undefined, { token: null })).status).toBe(401)
  })
})

describe('GET /api/skills and /api/skills/:slug', () => {
  it('lists the library as summaries', async () => {
    const res = await server.api('GET', '/api/skills')
    expect(res.status).toBe(200)
    const list = (res.body.data as unknown[]).map((s) => SkillSummary.parse(s))
    expect(list.length).toBeGreaterThanOrEqual(8)
    expect(list.find((s) => s.slug === 'hacker-news-top-stories')).toMatchObject({ scripted: true, risk: 'low' })
  })

  it('returns one skill with its procedure and script', async () => {
    const res = await server.api('GET', '/api/skills/login-safely')
    expect(res.status).toBe(200)
    const skill = Skill.parse(res.body.data)
    expect(skill).toMatchObject({ slug: 'login-safely', risk: 'high' })
    expect(skill.body).toContain('{{secret:NAME}}')
    expect(skill['risky-steps'].length).toBeGreaterThan(0)
    const scripted = Skill.parse((await server.api('GET', '/api/skills/hacker-news-top-stories')).body.data)
    expect(scripted.script?.[0]).toEqual({ type: 'navigate', url: 'https://news.ycombinator.com/' })
  })

  it('answers NOT_FOUND for an unknown skill and BAD_REQUEST for a malformed slug', async () => {
    const missing = await server.api('GET', '/api/skills/no-such-skill')
    expect(missing.status).toBe(404)
    expect(ErrorEnvelope.parse(missing.body).error.code).toBe('NOT_FOUND')
    const bad = await server.api('GET', '/api/skills/Bad..Slug')
    expect(bad.status).toBe(400)
    expect(ErrorEnvelope.parse(bad.body).error.code).toBe('BAD_REQUEST')
  })
})

describe('a library with broken files', () => {
  it('starts anyway and logs what it skipped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tandem-skills-'))
    mkdirSync(join(dir, 'good'))
    writeFileSync(join(dir, 'good', 'SKILL.md'), '---\nname: Water the plants\ndescription: Order plant food.\n---\n## Steps\n1. Go.')
    mkdirSync(join(dir, 'broken'))
    writeFileSync(join(dir, 'broken', 'SKILL.md'), '---\nname: x\n')
    const other = await startServer({ env: { TANDEM_SKILLS_DIR: dir } })
    try {
      const res = await other.api('GET', '/api/skills/search?q=plants')
      expect(res.body.data.map((r: { slug: string }) => r.slug)).toEqual(['good'])
      expect(other.log()).toMatch(/skill skipped: .*broken.SKILL\.md: no frontmatter/)
      expect(other.log()).toMatch(/1 skill indexed/)
    } finally {
      await other.close()
    }
  })
})
