import { readFileSync } from 'node:fs'
import { DEFAULT_RISK_RULES, RiskRules } from '#protocol'

/** The default rules, plus a JSON rules file when one is configured; a bad file stops the server with its name. */
export function loadRiskRules(file?: string): RiskRules {
  if (!file) return DEFAULT_RISK_RULES
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new Error(`Cannot read the risk rules file ${file}: ${(error as Error).message}`)
  }
  const parsed = RiskRules.safeParse(raw)
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ')
    throw new Error(`The risk rules file ${file} is not valid: ${where}`)
  }
  return parsed.data
}
