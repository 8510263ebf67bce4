import { defineEventHandler } from 'h3'
import type { InfoData } from '#protocol'
import { useConfig } from '../lib/app/use-config'
import { TANDEM_VERSION } from '../lib/http/version'

// What a client needs to know after connecting: that its token works, and whether goal-only tasks can run.
export default defineEventHandler(() => {
  const { llm } = useConfig()
  const configured = !!(llm.baseUrl && llm.model)
  const data: InfoData = { name: 'tandem', version: TANDEM_VERSION, llm: { configured, ...(configured ? { model: llm.model } : {}), vision: llm.vision } }
  return { ok: true, data }
})
