import { describe, expect, it } from 'vitest'
import type { ChatMessage, Completion, LlmGateway } from '../../server/lib/llm/gateway'
import { redactingGateway } from '../../server/lib/privacy/redacting-gateway'
import { createSecrets } from '../../server/lib/privacy/secrets'

const env = {
  TANDEM_SECRET_SHOP_PASSWORD: 'hunter2-xyz',
  TANDEM_SECRET_shop_pin: '4711',
  TANDEM_SECRET_LONG: 'hunter2-xyz-and-more',
  TANDEM_SECRET_TINY: 'ab',
  TANDEM_SECRET_EMPTY: '',
  TANDEM_SECRETX: 'not a secret',
  OTHER: 'hunter3',
}

describe('named secrets', () => {
  const secrets = createSecrets(env)

  it('reads TANDEM_SECRET_<NAME> variables, names upper-cased, empty ones skipped', () => {
    expect(secrets.names().sort()).toEqual(['LONG', 'SHOP_PASSWORD', 'SHOP_PIN', 'TINY'])
    expect(secrets.values()).toContain('hunter2-xyz')
    expect(secrets.values()).not.toContain('not a secret')
  })

  it('fills known placeholders and leaves unknown ones alone', () => {
    expect(secrets.substitute('{{secret:SHOP_PASSWORD}}')).toBe('hunter2-xyz')
    expect(secrets.substitute('pin {{ secret:shop_pin }}!')).toBe('pin 4711!')
    expect(secrets.substitute('{{secret:NOPE}} and {{secret:SHOP_PASSWORD}}')).toBe('{{secret:NOPE}} and hunter2-xyz')
    expect(secrets.substitute('no placeholders')).toBe('no placeholders')
  })

  it('redacts values back to placeholders, the longest first', () => {
    expect(secrets.redact('typed hunter2-xyz twice: hunter2-xyz')).toBe('typed {{secret:SHOP_PASSWORD}} twice: {{secret:SHOP_PASSWORD}}')
    expect(secrets.redact('hunter2-xyz-and-more')).toBe('{{secret:LONG}}')
    expect(secrets.redact('pin 4711')).toBe('pin {{secret:SHOP_PIN}}')
    // Two letters would rewrite ordinary words.
    expect(secrets.redact('about')).toBe('about')
  })

  it('round-trips: what is substituted and then observed redacts to the same placeholder', () => {
    const typed = secrets.substitute('{{secret:SHOP_PASSWORD}}')
    expect(secrets.redact(`value="${typed}"`)).toBe('value="{{secret:SHOP_PASSWORD}}"')
  })

  it('has nothing to do without secrets', () => {
    const none = createSecrets({})
    expect(none.names()).toEqual([])
    expect(none.redact('hunter2-xyz')).toBe('hunter2-xyz')
  })
})

describe('the redacting gateway', () => {
  it('scrubs every message, text parts included, before the model sees it', async () => {
    const seen: ChatMessage[][] = []
    const inner: LlmGateway = {
      model: 'm',
      async complete({ messages }) {
        seen.push(messages)
        return { text: '{}', model: 'm', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, latencyMs: 1, format: 'none' } satisfies Completion
      },
    }
    const gateway = redactingGateway(inner, createSecrets(env).redact)
    await gateway.complete({
      messages: [
        { role: 'system', content: 'rules' },
        { role: 'user', content: [{ type: 'text', text: 'the page says hunter2-xyz' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
        { role: 'assistant', content: 'I typed hunter2-xyz' },
      ],
    })
    expect(JSON.stringify(seen)).not.toContain('hunter2-xyz')
    expect(seen[0][1].content).toEqual([
      { type: 'text', text: 'the page says {{secret:SHOP_PASSWORD}}' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    ])
    expect(seen[0][2].content).toBe('I typed {{secret:SHOP_PASSWORD}}')
  })
})
