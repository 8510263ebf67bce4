import type { Storage } from 'unstorage'
import { DEFAULT_RISK_RULES } from '#protocol'
import { createScriptPlanner } from '../../server/lib/agent/script-planner'
import type { AuditLog } from '../../server/lib/audit/log'
import { createRiskPolicy } from '../../server/lib/policy/risk-policy'
import { createClientRegistry } from '../../server/lib/state/clients'
import { createNotifier } from '../../server/lib/state/notifier'
import { createTaskStore } from '../../server/lib/state/store'
import type { EngineDeps } from '../../server/lib/tasks/deps'
import { createEngine } from '../../server/lib/tasks/engine'

/**
 * The engine as one server process composes it, in the test's process, over `storage` and `audit`: scripts only and
 * no artifacts unless a test says otherwise. Two calls over the same storage are a server and its restart.
 */
export function inProcessEngine(storage: Storage, audit: AuditLog, parts: Partial<EngineDeps> = {}) {
  return createEngine({
    store: createTaskStore(storage, { cache: true }),
    clients: createClientRegistry(storage),
    notifier: createNotifier(),
    policy: createRiskPolicy(DEFAULT_RISK_RULES),
    audit,
    artifacts: { decode: () => [], save: async () => [] },
    planners: { script: createScriptPlanner() },
    pollIntervalMs: 10,
    ...parts,
  })
}
