import { describe, expect, it } from 'vitest'
import { cutText, shortenText, toWellFormedText } from '#protocol'
import { parseSkill } from '../../server/lib/skills/parse-skill'
import { renderRecording } from '../../server/lib/skills/recording-file'
import { renderSkill } from '../../server/lib/skills/skill-file'

// What an outside test sent: each once in a name, a description, a parameter's label and a step's reason.
const HARD = {
  'line separator': 'a\u2028b',
  'paragraph separator': 'a\u2029b',
  'next line (NEL)': 'a\u0085b',
  'C0 controls': 'a\u0000\u0007\u000b\u000c\rb',
  'bidi controls': '\u202eevil\u202c \u2066x\u2069 \u200f',
  'a BOM inside': 'a\ufeffb',
  'emoji and CJK': '😀 技能 🇨🇳',
  'a YAML-looking value': '- x: "y" # z\n---\n',
} as const

const frontmatterOf = (text: string) => text.split('\n---\n')[0]

describe.each(Object.entries(HARD))('SKILL.md with %s', (_what, value) => {
  it('reads a demonstration back exactly as it was written', () => {
    const text = renderRecording({
      name: value,
      description: value,
      sop: `Do it. ${value}`,
      steps: [
        { type: 'navigate', url: 'https://shop.example.com/', reason: value },
        { type: 'type', selector: '#q', text: '{{query}}', reason: value },
      ],
      parameters: [{ name: 'query', label: value }],
    })
    const skill = parseSkill('x', text)
    expect(skill.name).toBe(value)
    expect(skill.description).toBe(value)
    expect(skill.parameters).toEqual([{ name: 'query', label: value }])
    expect(skill.script!.map((s) => ('reason' in s ? s.reason : undefined))).toEqual([value, value])
    expect(skill.body).toBe(`# ${value}\n\nDo it. ${value}`.trim())
  })

  it('keeps every frontmatter value on one line, with nothing hidden or reordering in it', () => {
    const text = renderSkill({
      name: value,
      description: value,
      goal: value,
      sites: [],
      tags: [value],
      steps: [{ step: { type: 'click', selector: '#go', reason: value }, risk: 'high', words: value }],
      source: { taskId: 't1', status: 'DONE', at: '2025-01-01T00:00:00.000Z' },
    })
    expect(frontmatterOf(text)).not.toMatch(/[\u0080-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/)
    const skill = parseSkill('x', text)
    expect([skill.name, skill.description, skill.tags[0], skill['risky-steps'][0]]).toEqual([value, value, value, value])
  })
})

describe('a SKILL.md written by hand', () => {
  it('may hold a line or paragraph separator inside a quoted value', () => {
    const skill = parseSkill('x', '---\nname: "a\u2028b"\ndescription: c\u2029d\ntags:\n  - "e\u2028f"\n---\nbody')
    expect([skill.name, skill.description, skill.tags]).toEqual(['a\u2028b', 'c\u2029d', ['e\u2028f']])
  })
})

describe('cutting text', () => {
  it('never splits an emoji in two', () => {
    expect(cutText('ab😀', 3)).toBe('ab')
    expect(cutText('ab😀', 4)).toBe('ab😀')
    expect(shortenText('a😀bc', 3)).toBe('a…')
    expect(toWellFormedText('a\ud800b\udc00😀')).toBe('a\ufffdb\ufffd😀')
  })
})
