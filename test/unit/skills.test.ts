import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadSkills } from '../../server/lib/skills/load-skills'
import { parseSkill } from '../../server/lib/skills/parse-skill'
import { createSkillIndex, type SkillIndex } from '../../server/lib/skills/search-index'
import { tokenize } from '../../server/lib/skills/tokenizer'

let index: SkillIndex
beforeAll(async () => {
  const { skills, problems } = await loadSkills(resolve('skills'))
  expect(problems).toEqual([])
  expect(skills.length).toBeGreaterThanOrEqual(8)
  index = createSkillIndex(skills)
})

describe('the starter library', () => {
  it.each([
    ['log in', 'login-safely'],
    ['password', 'login-safely'],
    ['登录', 'login-safely'],
    ['compare prices', 'compare-prices'],
    ['cheapest product', 'compare-prices'],
    ['比较商品', 'ecommerce-compare-zh'],
    ['淘宝 搜索', 'ecommerce-compare-zh'],
    ['京东比价', 'ecommerce-compare-zh'],
    ['github issue', 'github-file-issue'],
    ['github 提交 issue', 'github-file-issue'],
    ['Bug Report', 'github-file-issue'],
    ['send email', 'webmail-send-email'],
    ['发送邮件', 'webmail-send-email'],
    ['Gmail', 'webmail-send-email'],
    ['fill form', 'fill-and-submit-form'],
    ['填写表单', 'form-submit-zh'],
    ['提交表单', 'form-submit-zh'],
    ['报名', 'form-submit-zh'],
    ['search site', 'search-a-site'],
    ['download invoice', 'invoice-download-zh'],
    ['下载发票', 'invoice-download-zh'],
    ['账单', 'invoice-download-zh'],
    ['checkout', 'checkout-with-approval'],
    ['place order', 'checkout-with-approval'],
    ['THE checkout OF an order', 'checkout-with-approval'],
  ])('%s → %s', (query, slug) => {
    expect(index.search(query, { limit: 3 })[0]?.slug).toBe(slug)
  })

  it('filters by site, subdomains included', () => {
    const onJd = index.search('', { site: 'https://item.jd.com/100.html' }).map((r) => r.slug)
    expect(onJd).toContain('ecommerce-compare-zh')
    expect(onJd).not.toContain('github-file-issue')
    expect(index.search('issue', { site: 'github.com' })[0]?.slug).toBe('github-file-issue')
    expect(index.search('issue', { site: 'gitlab.com' })).toEqual([])
  })

  it('finds nothing for nonsense', () => {
    expect(index.search('zzzqqq xylophone')).toEqual([])
  })
})

describe('tokenizer', () => {
  it('lowercases, segments Chinese and drops Chinese and English stopwords', () => {
    const tokens = tokenize('The GitHub 的 Issue 在电商网站搜索')
    expect(tokens).toContain('github')
    expect(tokens).toContain('issue')
    expect(tokens).toContain('搜索')
    expect(tokens).not.toContain('the')
    expect(tokens).not.toContain('的')
  })
})

describe('SKILL.md files', () => {
  const good = `---\nname: Demo\ndescription: A demo.\nsites: [example.com, "*.example.org"]\ntags: [a, b]\nrisk: low\nallowed-actions: [click, done]\nscript:\n  - {"type": "click", "text": "Go"}\n---\nBody text`

  it('parses frontmatter, lists and a script', () => {
    const skill = parseSkill('demo', good)
    expect(skill).toMatchObject({ slug: 'demo', name: 'Demo', sites: ['example.com', '*.example.org'], risk: 'low', body: 'Body text' })
    expect(skill.script).toEqual([{ type: 'click', text: 'Go' }])
  })

  it.each([
    ['no frontmatter', 'just text', /frontmatter/],
    ['a missing name', '---\ndescription: x\n---\n', /name/],
    ['an unknown action', '---\nname: x\ndescription: y\nallowed-actions: [teleport]\n---\n', /allowed-actions/],
    ['a broken line', '---\nname x\n---\n', /line 2/],
    ['a broken script step', '---\nname: x\ndescription: y\nscript:\n  - {not json}\n---\n', /JSON/],
  ])('refuses %s with a clear message', (_name, source, message) => {
    expect(() => parseSkill('x', source)).toThrow(message)
  })

  it('skips and reports broken files without failing the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tandem-skills-'))
    for (const [slug, body] of [['ok', good], ['broken', 'no frontmatter'], ['Bad_Slug', good], ['empty', null]] as const) {
      mkdirSync(join(dir, slug))
      if (body) writeFileSync(join(dir, slug, 'SKILL.md'), body)
    }
    const { skills, problems } = await loadSkills(dir)
    expect(skills.map((s) => s.slug)).toEqual(['ok'])
    expect(problems.map((p) => p.file).sort()).toEqual(
      [join(dir, 'Bad_Slug', 'SKILL.md'), join(dir, 'broken', 'SKILL.md'), join(dir, 'empty', 'SKILL.md')].sort(),
    )
  })
})
