/**
 * Skills search: index build time and query latency at 1k and 10k generated skills, for Chinese, English and
 * mixed queries, with and without a site filter. `npx tsx bench/skills.ts`
 */
import { resolve } from 'node:path'
import type { Skill } from '#protocol'
import { loadSkills } from '../server/lib/skills/load-skills'
import { createSkillIndex } from '../server/lib/skills/search-index'
import { percentile, table } from './stats'
import { printSummary, summaryRow, type SummaryRow } from './summary'

const EN = [
  'order', 'invoice', 'login', 'github', 'issue', 'email', 'form', 'search', 'price', 'checkout', 'report', 'calendar',
  'upload', 'profile', 'ticket', 'refund', 'booking', 'hotel', 'flight', 'export', 'password', 'subscription', 'cart',
  'review', 'shipping', 'address', 'payment', 'account', 'dashboard', 'meeting', 'invite', 'repository', 'release',
]
const ZH = [
  '订单', '发票', '登录', '邮件', '表单', '搜索', '比价', '结算', '报表', '日程', '上传', '资料', '工单', '商品', '账单',
  '退款', '预订', '酒店', '机票', '导出', '密码', '订阅', '购物车', '评价', '快递', '地址', '支付', '账号', '会议', '报名',
]
const pick = <T>(list: readonly T[], i: number) => list[i % list.length]

// Real SOP bodies give realistic lengths and word mixes; names, tags and sites vary per generated skill.
const { skills: starter } = await loadSkills(resolve('skills'))
if (!starter.length) throw new Error('bench/skills.ts needs the starter library in skills/')

function generate(n: number): Skill[] {
  return Array.from({ length: n }, (_, i) => {
    const base = starter[i % starter.length]
    return {
      ...base,
      slug: `skill-${i}`,
      name: `${pick(EN, i)} ${pick(ZH, i * 7)} ${pick(EN, i * 13)} ${i}`,
      description: `How to ${pick(EN, i * 3)} and ${pick(EN, i * 5)} the ${pick(EN, i * 11)}; ${pick(ZH, i * 11)}和${pick(ZH, i * 13)}的步骤。`,
      sites: i % 4 === 0 ? [] : [`${pick(['www', 'shop', 'app', 'm'], i)}.site${i % 500}.example.com`, ...(i % 7 === 0 ? [`*.brand${i % 90}.com`] : [])],
      tags: [pick(EN, i * 17), pick(ZH, i * 19), pick(EN, i * 23)],
      script: undefined,
    }
  })
}

const QUERIES = [
  'download invoice', '下载发票', 'github 提交 issue', 'log in', '比较商品价格', 'send email 邮件', 'checkout order',
  '填写表单', 'refund a hotel booking', '导出账单 csv', 'change shipping address', '预订机票', 'password reset 密码',
]
const SITES = ['https://shop.site42.example.com/cart', 'item.brand7.com', 'app.site99.example.com', 'github.com']

/**
 * The baseline: no index, a scan of every skill's text (lowercased once, before timing) counting the query's
 * words it contains, then the best five; with a site, a scan of every skill's site patterns.
 */
function linearScan(skills: Skill[]) {
  const haystacks = skills.map((s) => [s.name, s.description, s.tags.join(' '), s.sites.join(' '), s.body].join('\n').toLowerCase())
  const hosts = skills.map((s) => s.sites.map((p) => p.replace(/^\*\./, '')))
  const best = (scores: number[]) =>
    scores
      .map((score, i) => ({ score, i }))
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 5)
  return {
    search(query: string) {
      const words = query.toLowerCase().split(/\s+/).filter(Boolean)
      return best(haystacks.map((h) => words.reduce((n, w) => n + (h.includes(w) ? 1 : 0), 0)))
    },
    site(site: string) {
      const host = site.replace(/^[a-z]+:\/\//, '').split('/')[0]!
      return best(hosts.map((list) => (list.some((p) => host === p || host.endsWith('.' + p)) ? 1 : 0)))
    },
  }
}

const ms = (v: number) => `${v.toFixed(2)} ms`
const rows: string[][] = []
const summary: SummaryRow[] = []
const SIZES = process.env.BENCH_QUICK === '1' ? [1_000] : [1_000, 10_000]
for (const n of SIZES) {
  const skills = generate(n)
  const heap0 = process.memoryUsage().heapUsed
  const t0 = performance.now()
  const index = createSkillIndex(skills)
  const buildMs = performance.now() - t0
  const heapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20

  const text: number[] = []
  const filtered: number[] = []
  for (let round = 0; round < 30; round++) {
    for (const [i, q] of QUERIES.entries()) {
      let s = performance.now()
      index.search(q, { limit: 5 })
      text.push(performance.now() - s)
      s = performance.now()
      index.search(i % 3 === 0 ? '' : q, { site: pick(SITES, i + round), limit: 5 })
      filtered.push(performance.now() - s)
    }
  }
  const scan = linearScan(skills)
  const scanText: number[] = []
  const scanSite: number[] = []
  for (let round = 0; round < 5; round++) {
    for (const [i, q] of QUERIES.entries()) {
      let s = performance.now()
      scan.search(q)
      scanText.push(performance.now() - s)
      s = performance.now()
      scan.site(pick(SITES, i + round))
      scanSite.push(performance.now() - s)
    }
  }
  const label = n.toLocaleString('en')
  summary.push(
    summaryRow(`skills search p50 (${label} skills)`, ms(percentile(text, 50)), `${ms(percentile(scanText, 50))} linear scan`, percentile(text, 50) / percentile(scanText, 50), `Orama index, built in ${buildMs.toFixed(0)} ms; lower is better`),
  )
  if (n === 10_000) {
    summary.push(
      summaryRow(`skills search by site p50 (${label} skills)`, ms(percentile(filtered, 50)), `${ms(percentile(scanSite, 50))} linear scan`, percentile(filtered, 50) / percentile(scanSite, 50), 'lower is better'),
    )
  }
  rows.push([
    n.toLocaleString('en'),
    `${buildMs.toFixed(0)} ms`,
    `${heapMb.toFixed(0)} MB`,
    ms(percentile(text, 50)),
    ms(percentile(text, 95)),
    ms(percentile(filtered, 50)),
    ms(percentile(filtered, 95)),
    ms(percentile(scanText, 50)),
  ])
}

printSummary(summary)
console.log(
  `## Skills search\n\nOrama full-text index, Chinese/English tokenizer; ${QUERIES.length} mixed Chinese, English and mixed-language queries × 30 rounds; ` +
    `"with site" filters by a hostname or URL (a third of them with an empty query). Heap is approximate. The linear scan checks every skill's text for each query word, with no index.\n\n` +
    table(['skills', 'index build', 'heap', 'search p50', 'search p95', 'with site p50', 'with site p95', 'linear scan p50'], rows),
)
