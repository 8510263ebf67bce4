/** Skills search: index build time and query latency at 1k and 10k generated skills, Chinese and English queries. */
import type { Skill } from '#protocol'
import { createSkillIndex } from '../server/lib/skills/search-index'
import { percentile, table } from './stats'

const EN = ['order', 'invoice', 'login', 'github', 'issue', 'email', 'form', 'search', 'price', 'checkout', 'report', 'calendar', 'upload', 'profile', 'ticket']
const ZH = ['订单', '发票', '登录', '邮件', '表单', '搜索', '比价', '结算', '报表', '日程', '上传', '资料', '工单', '商品', '账单']
const pick = <T>(list: T[], i: number) => list[i % list.length]

function generate(n: number): Skill[] {
  return Array.from({ length: n }, (_, i) => ({
    slug: `skill-${i}`,
    name: `${pick(EN, i)} ${pick(ZH, i * 7)} ${i}`,
    description: `How to ${pick(EN, i * 3)} and ${pick(EN, i * 5)}; ${pick(ZH, i * 11)}${pick(ZH, i * 13)}的步骤`,
    sites: [`site${i % 50}.example.com`],
    tags: [pick(EN, i * 17), pick(ZH, i * 19)],
    risk: 'low',
    'allowed-actions': ['click'],
    'risky-steps': [],
    body: `1. Open the ${pick(EN, i)} page. 2. ${pick(ZH, i)}并${pick(ZH, i + 3)}. 3. Check the ${pick(EN, i + 5)}.`,
  }))
}

const QUERIES = ['download invoice', '下载发票', 'github 提交 issue', 'login', '比价 商品', 'send email 邮件', 'checkout order', '表单']

const rows: string[][] = []
for (const n of [1_000, 10_000]) {
  const skills = generate(n)
  const t0 = performance.now()
  const index = createSkillIndex(skills)
  const buildMs = performance.now() - t0
  const samples: number[] = []
  for (let round = 0; round < 25; round++) {
    for (const q of QUERIES) {
      const s = performance.now()
      index.search(q, { limit: 5 })
      samples.push(performance.now() - s)
    }
  }
  rows.push([n.toLocaleString('en'), `${buildMs.toFixed(0)} ms`, `${percentile(samples, 50).toFixed(2)} ms`, `${percentile(samples, 95).toFixed(2)} ms`])
}
console.log(`## Skills search (Orama, mixed Chinese/English queries)\n\n${table(['skills', 'index build', 'search p50', 'search p95'], rows)}`)
