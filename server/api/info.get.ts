import { defineEventHandler } from 'h3'
import { useConfig } from '../lib/app/use-config'

// What a client needs to know after connecting: that its token works, and whether goal-only tasks can run.
export default defineEventHandler(() => {
  const { llm } = useConfig()
  const configured = !!(llm.baseUrl && llm.model)
  return { ok: true, data: { name: 'tandem', version: '0.1.0', llm: { configured, ...(configured ? { model: llm.model } : {}), vision: llm.vision } } }
})
