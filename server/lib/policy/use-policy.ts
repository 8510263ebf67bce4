import { useConfig } from '../config'
import { loadRiskRules } from './load-rules'
import { createRiskPolicy, type RiskPolicy } from './risk-policy'

let policy: RiskPolicy | undefined
export const usePolicy = () => (policy ??= createRiskPolicy(loadRiskRules(useConfig().policyFile)))
