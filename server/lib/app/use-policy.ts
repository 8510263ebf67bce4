import { loadRiskRules } from '../policy/load-rules'
import { createRiskPolicy, type RiskPolicy } from '../policy/risk-policy'
import { useConfig } from './use-config'

let policy: RiskPolicy | undefined
export const usePolicy = () => (policy ??= createRiskPolicy(loadRiskRules(useConfig().policyFile)))
