import { resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { SkillSearchResult, SkillSummary, type Skill } from '#protocol'
import { loadSkills } from '../../server/lib/skills/load-skills'
import { createSkillIndex, type SkillIndex } from '../../server/lib/skills/search-index'
import { hostKeys, hostOf, siteMatches } from '../../server/lib/skills/site-match'
import { skill } from '../support/skill'


let library: Skill[]
let index: SkillIndex
beforeAll(async () => {
  const { skills, problems } = await loadSkills(resolve('skills'))
  expect(problems).toEqual([])
  library = skills
  index = createSkillIndex(skills)
})

describe('the starter library', () => {
  it('has at least 8 skills, each with an SOP, and Chinese ones', () => {
    expect(library.length).toBeGreaterThanOrEqual(8)
    for (const s of library) expect(s.body, s.slug).toMatch(/^## /m)
    expect(library.filter((s) => /\p{Script=Han}/u.test(s.name)).length).toBeGreaterThanOrEqual(3)
    // Every skill that can change something lists what needs the person's approval.
    for (const s of library.filter((s) => s.risk !== 'low')) expect(s['risky-steps'].length, s.slug).toBeGreaterThan(0)
  })

  it.each([
    // English
    ['log in', 'login-safely'],
    ['password', 'login-safely'],
    ['two-factor code', 'login-safely'],
    ['compare prices', 'compare-prices'],
    ['where is it cheapest', 'compare-prices'],
    ['github issue', 'github-file-issue'],
    ['report a bug', 'github-file-issue'],
    ['feature request', 'github-file-issue'],
    ['send an email to my boss', 'webmail-send-email'],
    ['Gmail', 'webmail-send-email'],
    ['fill in the contact form', 'fill-and-submit-form'],
    ['find an article', 'search-a-site'],
    ['download invoice', 'download-invoice'],
    ['amazon receipts', 'download-invoice'],
    ['place order', 'checkout-with-approval'],
    ['book a hotel', 'checkout-with-approval'],
    ['THE checkout OF an order', 'checkout-with-approval'],
    ['export my transactions to excel', 'export-data-csv'],
    ['HN top stories', 'hacker-news-top-stories'],
    // Chinese
    ['登录账号', 'login-safely'],
    ['比较商品', 'ecommerce-compare-zh'],
    ['在淘宝上比较耳机价格', 'ecommerce-compare-zh'],
    ['京东比价', 'ecommerce-compare-zh'],
    ['发送邮件', 'webmail-send-email'],
    ['写邮件给同事', 'webmail-send-email'],
    ['填写表单', 'form-submit-zh'],
    ['报名', 'form-submit-zh'],
    ['下载发票', 'invoice-download-zh'],
    ['报销', 'invoice-download-zh'],
    ['预订酒店', 'checkout-with-approval'],
    ['导出数据', 'export-data-csv'],
    ['热门新闻', 'hacker-news-top-stories'],
    // Mixed
    ['github 提交 issue', 'github-file-issue'],
    ['淘宝 shopping', 'ecommerce-compare-zh'],
    ['阿里云 账单', 'invoice-download-zh'],
    ['gmail 发送', 'webmail-send-email'],
    ['京东 发票', 'invoice-download-zh'],
    ['export 账单 csv', 'export-data-csv'],
  ])('%s → %s', (query, slug) => {
    const results = index.search(query, { limit: 3 })
    expect(results[0]?.slug, JSON.stringify(results.map((r) => r.slug))).toBe(slug)
  })

  it('ranks by score, highest first, and honours the limit', () => {
    const results = index.search('download export invoice csv', { limit: 2 })
    expect(results).toHaveLength(2)
    for (const r of results) expect(SkillSearchResult.parse(r)).toEqual(r)
    expect(results[0].score).toBeGreaterThanOrEqual(results[1].score)
    expect(index.search('the', { limit: 3 })).toEqual([])
    expect(index.search('zzzqqq xylophone')).toEqual([])
  })

  it('lists every skill as a summary', () => {
    const list = index.list()
    expect(list.map((s) => s.slug)).toEqual(library.map((s) => s.slug).sort())
    for (const s of list) expect(SkillSummary.parse(s)).toEqual(s)
    expect(list.find((s) => s.slug === 'hacker-news-top-stories')?.scripted).toBe(true)
    expect(list.find((s) => s.slug === 'login-safely')?.scripted).toBe(false)
  })

  it('says in each search result whether the skill replays a script with no LLM', () => {
    const scripted = (slug: string) => index.search(slug.replace(/-/g, ' '), { limit: 10 }).find((r) => r.slug === slug)?.scripted
    expect(scripted('hacker-news-top-stories')).toBe(true)
    expect(scripted('login-safely')).toBe(false)
    const browsed = index.search('', { limit: 100 })
    expect(browsed.length).toBeGreaterThan(0)
    for (const r of browsed) expect(r.scripted).toBe(!!index.get(r.slug)!.script?.length)
  })
})

describe('the site filter', () => {
  it('matches hostnames and URLs against a skill’s sites, subdomains included', () => {
    const onJd = index.search('', { site: 'https://item.jd.com/100.html', limit: 20 }).map((r) => r.slug)
    expect(onJd.sort()).toEqual(['ecommerce-compare-zh', 'invoice-download-zh'])
    expect(index.search('', { site: 'www.taobao.com', limit: 20 }).map((r) => r.slug).sort()).toEqual([
      'ecommerce-compare-zh',
      'invoice-download-zh',
    ])
    expect(index.search('issue', { site: 'github.com' })[0]?.slug).toBe('github-file-issue')
    expect(index.search('issue', { site: 'gitlab.com' })).toEqual([])
    // The filter narrows a query: on jd.com an invoice query finds the Chinese invoice skill only.
    expect(index.search('invoice 发票', { site: 'jd.com' }).map((r) => r.slug)).toEqual(['invoice-download-zh'])
    expect(index.search('invoice', { site: 'https://console.aws.amazon.com/billing/' })[0]?.slug).toBe('download-invoice')
  })

  it('supports *.example.com globs and never matches a look-alike domain', () => {
    const small = createSkillIndex([skill('glob', { sites: ['*.example.com'] }), skill('plain', { sites: ['shop.example.com'] })])
    const on = (site: string) => small.search('', { site }).map((r) => r.slug).sort()
    expect(on('example.com')).toEqual(['glob'])
    expect(on('https://a.b.example.com/x')).toEqual(['glob'])
    expect(on('shop.example.com')).toEqual(['glob', 'plain'])
    expect(on('eu.shop.example.com')).toEqual(['glob', 'plain'])
    expect(on('notexample.com')).toEqual([])
    expect(on('example.com.evil.io')).toEqual([])
    expect(on('shop.example.co')).toEqual([])
    // Without a query, the skill written for the exact host comes first.
    expect(small.search('', { site: 'shop.example.com' }).map((r) => r.slug)).toEqual(['plain', 'glob'])
  })

  it('filters inside the index, so a weak match on the site is not crowded out by strong ones elsewhere', () => {
    const many = Array.from({ length: 3000 }, (_, i) => skill(`strong-${i}`, { name: `invoice invoice ${i}`, tags: ['invoice'] }))
    const weak = skill('weak', { sites: ['billing.example.net'], body: 'Somewhere the word invoice appears once.' })
    const big = createSkillIndex([...many, weak])
    expect(big.search('invoice', { site: 'billing.example.net', limit: 1 }).map((r) => r.slug)).toEqual(['weak'])
  })

  it('normalises hosts and URLs', () => {
    expect(hostOf('https://WWW.Taobao.com/item?id=1')).toBe('taobao.com')
    expect(hostOf('localhost:3000')).toBe('localhost')
    expect(hostOf('example.com.')).toBe('example.com')
    expect(hostKeys('a.b.example.com')).toEqual(['a.b.example.com', 'b.example.com', 'example.com', 'com'])
    expect(siteMatches('*.jd.com', 'https://item.jd.com/')).toBe(true)
    expect(siteMatches('jd.com', 'notjd.com')).toBe(false)
  })
})

describe('adding skills', () => {
  it('adds a new skill and replaces one with the same slug', () => {
    const live = createSkillIndex([skill('alpha', { name: 'Renew a library book' })])
    expect(live.size).toBe(1)
    live.add(skill('beta', { name: '续借图书馆的书', tags: ['图书馆'] }))
    expect(live.size).toBe(2)
    expect(live.search('图书馆')[0]?.slug).toBe('beta')

    live.add(skill('alpha', { name: 'Cancel a gym membership' }))
    expect(live.size).toBe(2)
    expect(live.search('library book').map((r) => r.slug)).toEqual([])
    expect(live.search('gym membership')[0]?.slug).toBe('alpha')
    expect(live.get('alpha')?.name).toBe('Cancel a gym membership')
  })

  it('an empty query lists skills without a site too', () => {
    const live = createSkillIndex([skill('a'), skill('b'), skill('c')])
    expect(live.search('', { limit: 2 })).toHaveLength(2)
    expect(createSkillIndex().search('anything')).toEqual([])
  })
})
