import { describe, expect, it } from 'vitest'
import { AnswerBody, SaveRecordingBody, SaveSkillBody, StartBody, TaskCommandBody } from '#protocol'

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message

describe('what a person writes', () => {
  it('is kept as written: separators, controls, bidi marks, emoji and CJK', () => {
    const text = 'a\u2028b\u2029c\u0085\u0000\u202e技能😀\r\n'
    expect(StartBody.parse({ goal: text }).goal).toBe(text.trim())
    expect(AnswerBody.parse({ taskId: 't', answer: text }).answer).toBe(text.trim())
    expect(TaskCommandBody.parse({ taskId: 't', reason: text }).reason).toBe(text)
    expect(SaveSkillBody.parse({ taskId: 't', description: text }).description).toBe(text.trim())
  })

  it('is refused when it holds half of a surrogate pair, saying to send each character whole', () => {
    for (const result of [StartBody.safeParse({ goal: 'a\ud800' }), AnswerBody.safeParse({ taskId: 't', answer: '\udc00b' }), TaskCommandBody.safeParse({ taskId: 't', reason: 'x\ud83d' })]) {
      expect(result.success).toBe(false)
      expect(messageOf(result)).toMatch(/well-formed Unicode: send each emoji or rare character whole/)
    }
    expect(StartBody.parse({ goal: '😀' }).goal).toBe('😀')
  })

  it('names a skill on one line', () => {
    for (const name of ['a\nb', 'a\u2028b', 'a\tb', 'a\u0000b', 'a\u0085b']) {
      expect(messageOf(SaveSkillBody.safeParse({ taskId: 't', name })), JSON.stringify(name)).toMatch(/must be one line/)
    }
    const recording = { sop: 'Do it.', steps: [{ type: 'navigate', url: 'https://shop.example.com/' }] }
    expect(messageOf(SaveRecordingBody.safeParse({ ...recording, name: 'a\u2029b' }))).toMatch(/must be one line/)
    expect(SaveRecordingBody.parse({ ...recording, name: ' \u202e技能 😀 ' }).name).toBe('\u202e技能 😀')
  })
})
