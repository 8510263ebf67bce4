import { join } from 'node:path'
import { createStorage } from 'unstorage'
import { createScriptPlanner } from '../agent/script-planner'
import { useLlmPlanner } from '../agent/use-llm-planner'
import { useSecrets } from '../secrets/secrets'
import { ArtifactError, decodeArtifacts, type DecodedArtifact } from '../audit/artifacts'
import { useArtifactStore, useAuditLog } from '../audit/use-audit'
import { useConfig } from '../config'
import { apiError } from '../http/errors'
import { usePolicy } from '../policy/use-policy'
import { useSkills } from '../skills/use-skills'
import { fsAtomicDriver } from '../storage/fs-atomic-driver'
import { createClientRegistry } from './clients'
import { createEngine, type Engine } from './engine'
import { createNotifier } from './notifier'
import { createTaskStore } from './store'

function decodeOrRefuse(uploads: Parameters<typeof decodeArtifacts>[0]) {
  try {
    return decodeArtifacts(uploads, useConfig().maxArtifactBytes)
  } catch (error) {
    if (error instanceof ArtifactError) throw apiError(error.code, error.message)
    throw error
  }
}

let engine: Engine | undefined

/** The server's one engine, over the data dir, the audit dir and the configured planners. */
export function useEngine(): Engine {
  if (engine) return engine
  const config = useConfig()
  const storage = createStorage({ driver: fsAtomicDriver({ base: join(config.dataDir, 'state') }) })
  const audit = useAuditLog()
  const artifactStore = useArtifactStore()
  engine = createEngine({
    store: createTaskStore(storage, { cache: true }),
    clients: createClientRegistry(storage),
    notifier: createNotifier(),
    policy: usePolicy(),
    audit,
    artifacts: {
      decode: decodeOrRefuse,
      save: (taskId, prefix, decoded) => artifactStore.write(taskId, decoded as DecodedArtifact[], prefix),
    },
    planners: { script: createScriptPlanner(), llm: useLlmPlanner() },
    secrets: useSecrets(),
    redact: config.redact,
    findSkill: async (slug) => (await useSkills()).get(slug),
  })
  return engine
}
