import { describe, expect, it } from 'vitest'
import { createTranslator, placeholdersOf, translationGaps } from '../../ui/i18n'

describe('translationGaps', () => {
  it('is empty for a complete pair, whatever order the Chinese fills its names in', () => {
    expect(translationGaps({ en: { steps: '{n} steps of {task}' }, 'zh-CN': { steps: '{task} 的 {n} 个步骤' } })).toEqual([])
  })

  it('names a key with no Chinese, or with empty Chinese', () => {
    expect(translationGaps({ en: { a: 'A', b: 'B', c: 'C' }, 'zh-CN': { a: '甲', c: '' } })).toEqual(['b: no Chinese', 'c: no Chinese'])
  })

  it('names a key whose Chinese fills in other names than the English', () => {
    expect(translationGaps({ en: { saved: 'Saved as {file}' }, 'zh-CN': { saved: '已保存为 {name}' } })).toEqual(['saved: Chinese fills in {name}, English {file}'])
  })
})

describe('createTranslator', () => {
  it('fills in the names it is given, leaves the others, and falls back to English', () => {
    const t = createTranslator({ en: { steps: '{n} steps in {task}', only: 'English only' }, 'zh-CN': { steps: '{task} 中的 {n} 个步骤' } }, 'zh-CN')
    expect(t('steps', { n: 3 })).toBe('{task} 中的 3 个步骤')
    expect(t('only')).toBe('English only')
    expect(placeholdersOf('{b} and {a}')).toEqual(['a', 'b'])
  })
})
