import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SkillSummary } from '#protocol'
import { loadSkills } from '../../server/lib/skills/load-skills'
import { parseSkill, SkillFormatError } from '../../server/lib/skills/parse-skill'
import { excerptOf, toSummary } from '../../server/lib/skills/summary'

const GOOD = `---
# a comment line
name: Demo skill
description: >
  Does the demo,
  over two lines.
sites: [Example.com, "*.example.org"]
tags: ["a, b", c, 'it''s']
risk: low
allowed-actions: [navigate, click, done]
risky-steps:
  - Clicking "Go" (starts it)
script:
  - {"type": "navigate", "url": "https://example.com/"}
  - {"type": "click", "text": "Go"}
---
## When to use
Always.

1. Open it.
`

const withFront = (front: string) => `---\n${front}\n---\nBody`

describe('parseSkill', () => {
  it('reads every frontmatter field and the body', () => {
    const skill = parseSkill('demo', GOOD)
    expect(skill).toEqual({
      slug: 'demo',
      name: 'Demo skill',
      description: 'Does the demo, over two lines.',
      sites: ['example.com', '*.example.org'],
      tags: ['a, b', 'c', "it's"],
      risk: 'low',
      'allowed-actions': ['navigate', 'click', 'done'],
      'risky-steps': ['Clicking "Go" (starts it)'],
      script: [
        { type: 'navigate', url: 'https://example.com/' },
        { type: 'click', text: 'Go' },
      ],
      body: '## When to use\nAlways.\n\n1. Open it.',
    })
  })

  it('fills defaults, and copes with CRLF, a BOM and a literal block', () => {
    const source = '\uFEFF---\r\nname: X\r\ndescription: |\r\n  line one\r\n  line two\r\n---\r\nBody\r\n'
    expect(parseSkill('x', source)).toMatchObject({
      description: 'line one\nline two',
      sites: [],
      tags: [],
      risk: 'medium',
      'allowed-actions': [],
      'risky-steps': [],
      body: 'Body',
    })
    expect(parseSkill('x', '---\nname: X\ndescription: Y\n---').body).toBe('')
  })

  it.each([
    ['no frontmatter', 'just text', /no frontmatter/],
    ['an unclosed frontmatter', '---\nname: x\ndescription: y\n', /no frontmatter/],
    ['a missing name', withFront('description: x'), /^name: /],
    ['a missing description', withFront('name: x'), /description: /],
    ['an unknown field (a typo)', withFront('name: x\ndescription: y\nrisky-step: [a]'), /risky-step/],
    ['an unknown action', withFront('name: x\ndescription: y\nallowed-actions: [teleport]'), /allowed-actions\.0/],
    ['an unknown risk', withFront('name: x\ndescription: y\nrisk: extreme'), /risk/],
    ['a URL as a site', withFront('name: x\ndescription: y\nsites: [https://github.com/]'), /sites\.0: a hostname/],
    ['a line that is not key: value', withFront('name x'), /line 2: expected "key: value"/],
    ['a key set twice', withFront('name: a\nname: b\ndescription: y'), /line 3: "name" is set twice/],
    ['a list item with no key', withFront('- a\nname: x'), /line 2: a "- item"/],
    ['an unclosed list', withFront('name: x\ndescription: y\ntags: [a, b'), /line 4: a list must close/],
    ['an unclosed quote', withFront('name: "x\ndescription: y'), /line 2: a "quoted" value/],
    ['a script step that is not JSON', withFront('name: x\ndescription: y\nscript:\n  - {not json}'), /line 5: a script step must be one JSON object/],
    ['a script step with no target', withFront('name: x\ndescription: y\nscript:\n  - {"type": "click"}'), /script\.0/],
    ['a script step with a misspelt field', withFront('name: x\ndescription: y\nscript:\n  - {"type": "navigate", "link": "https://x.y"}'), /script\.0/],
  ])('refuses %s with a message naming it', (_what, source, message) => {
    expect(() => parseSkill('x', source)).toThrow(SkillFormatError)
    expect(() => parseSkill('x', source)).toThrow(message)
  })
})

describe('loadSkills', () => {
  it('skips and reports broken files, keeps the good ones, ignores hidden folders', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tandem-skills-'))
    const files: [string, string | null][] = [
      ['ok', GOOD],
      ['also-ok', withFront('name: Other\ndescription: Another one')],
      ['broken', 'no frontmatter'],
      ['missing-name', withFront('description: y')],
      ['Bad_Slug', GOOD],
      ['empty', null],
      ['.git', null],
    ]
    for (const [slug, body] of files) {
      mkdirSync(join(dir, slug))
      if (body) writeFileSync(join(dir, slug, 'SKILL.md'), body)
    }
    writeFileSync(join(dir, 'README.md'), 'not a skill folder')
    const { skills, problems } = await loadSkills(dir)
    expect(skills.map((s) => s.slug)).toEqual(['also-ok', 'ok'])
    expect(Object.fromEntries(problems.map((p) => [p.file.slice(dir.length + 1), p.message]))).toEqual({
      'Bad_Slug/SKILL.md': expect.stringMatching(/not a slug/),
      'broken/SKILL.md': expect.stringMatching(/no frontmatter/),
      'empty/SKILL.md': 'no SKILL.md in this folder',
      'missing-name/SKILL.md': expect.stringMatching(/^name: /),
    })
  })

  it('reports a missing folder as a problem, not a crash', async () => {
    const dir = join(tmpdir(), 'tandem-no-such-skills-dir')
    const { skills, problems } = await loadSkills(dir)
    expect(skills).toEqual([])
    expect(problems).toEqual([{ file: dir, message: expect.stringMatching(/no skills folder/) }])
  })
})

describe('summaries', () => {
  it('carry the frontmatter, an excerpt and whether a script exists, not the script', () => {
    const summary = toSummary(parseSkill('demo', GOOD))
    expect(SkillSummary.parse(summary)).toEqual(summary)
    expect(summary).toMatchObject({ slug: 'demo', name: 'Demo skill', scripted: true, excerpt: 'Always. Open it.' })
    expect(summary).not.toHaveProperty('script')
    expect(summary).not.toHaveProperty('body')
  })

  it('cut long excerpts', () => {
    const excerpt = excerptOf(`## Steps\n1. ${'word '.repeat(100)}`)
    expect(excerpt.length).toBeLessThanOrEqual(200)
    expect(excerpt.endsWith('…')).toBe(true)
  })
})

describe('what a SKILL.md may not say about itself', () => {
  it('cannot claim to be the person’s own: that comes from the folder it is in', () => {
    expect(() => parseSkill('x', '---\nname: X\ndescription: d\nown: true\n---\nbody')).toThrow(/own: not a frontmatter field/)
  })

  it('takes parameters and a start URL, a path meaning a page of the Tandem server', () => {
    const skill = parseSkill('x', '---\nname: X\ndescription: d\nparameters:\n  - {"name":"email","label":"Email"}\nstart-url: "/demo/"\n---\n')
    expect(skill).toMatchObject({ parameters: [{ name: 'email', label: 'Email' }], 'start-url': '/demo/' })
    expect(() => parseSkill('x', '---\nname: X\ndescription: d\nstart-url: "//evil.test/"\n---\n')).toThrow(/start-url/)
    expect(() => parseSkill('x', '---\nname: X\ndescription: d\nparameters:\n  - {"name":"Bad Name","label":"x"}\n---\n')).toThrow(/parameters/)
  })
})
