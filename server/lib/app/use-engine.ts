import { createUploadFolder } from '../privacy/upload-folder'
import { createScriptPlanner } from '../agent/script-planner'
import { decodeArtifacts, type DecodedArtifact } from '../audit/artifacts'
import { createAllowedWrites } from '../state/allowed-writes'
import { createAskAlways } from '../state/ask-always'
import { createClientRegistry } from '../state/clients'
import { createNotifier } from '../state/notifier'
import { createRedisActiveIndex } from '../state/redis-active-index'
import { createRedisLock } from '../state/redis-lock'
import { createRedisNotifier } from '../state/redis-notifier'
import { createTaskStore } from '../state/store'
import type { EngineDeps } from '../tasks/deps'
import { createEngine, type Engine } from '../tasks/engine'
import { refuseArtifactError, useArtifactStore, useAuditLog } from './use-audit'
import { useConfig } from './use-config'
import { useLlmPlanner } from './use-llm-planner'
import { usePolicy } from './use-policy'
import { useSecrets } from './use-secrets'
import { useSkills } from './use-skills'
import { useStateStorage } from './use-state'

function decodeOrRefuse(uploads: Parameters<typeof decodeArtifacts>[0]) {
  try {
    return decodeArtifacts(uploads, useConfig().maxArtifactBytes)
  } catch (error) {
    return refuseArtifactError(error)
  }
}

type SharedState = Pick<EngineDeps, 'store' | 'clients' | 'notifier' | 'allowedWrites' | 'askAlways'>

/** Tasks, clients, wake-ups, the writes always allowed and the harmless kinds always asked about: in the data dir for one server, or in Redis for several sharing the same tasks. */
function sharedState(): SharedState {
  const { storage, redis } = useStateStorage()
  if (redis) {
    return {
      store: createTaskStore(storage, { withLock: createRedisLock(redis.redis), cache: false, activeIndex: createRedisActiveIndex(redis.redis) }),
      clients: createClientRegistry(storage, { shared: true }),
      allowedWrites: createAllowedWrites(storage, { shared: true }),
      askAlways: createAskAlways(storage, { shared: true }),
      notifier: createRedisNotifier(redis.redis, redis.subscriber),
    }
  }
  return {
    store: createTaskStore(storage, { cache: true }),
    clients: createClientRegistry(storage),
    notifier: createNotifier(),
    allowedWrites: createAllowedWrites(storage),
    askAlways: createAskAlways(storage),
  }
}

let engine: Engine | undefined

/** The server's one engine, over the configured task store, the audit dir and the configured planners. */
export function useEngine(): Engine {
  if (engine) return engine
  const config = useConfig()
  const audit = useAuditLog()
  const artifactStore = useArtifactStore()
  engine = createEngine({
    ...sharedState(),
    policy: usePolicy(),
    audit,
    artifacts: {
      decode: decodeOrRefuse,
      save: (taskId, prefix, decoded) => artifactStore.write(taskId, decoded as DecodedArtifact[], prefix),
    },
    planners: { script: createScriptPlanner({ model: useLlmPlanner() }), llm: useLlmPlanner() },
    secrets: useSecrets(),
    redact: config.redact,
    uploads: createUploadFolder(config.uploadDir),
    findSkill: async (slug) => (await useSkills()).get(slug),
  })
  return engine
}
