import { join, resolve } from 'node:path'

export interface Config {
  dataDir: string
  auditDir: string
  skillsDir: string
  /** The person's own skills ("Save as skill"): in the data dir, so the shipped skills folder is only read. */
  userSkillsDir: string
  /** Where task state lives: files in the data dir (one server), or Redis (several servers sharing tasks). */
  store: StoreKind
  redisUrl: string
  /** Set by TANDEM_TOKEN; otherwise generated into the data dir on first start. */
  token?: string
  policyFile?: string
  /** Largest request body for ordinary routes, and for reports that carry screenshots. */
  maxBodyBytes: number
  maxReportBytes: number
  maxArtifactBytes: number
  /** How long a connection may take to send a request, and stay idle between requests. */
  http: HttpTimeouts
  /** Host header values accepted besides loopback ones (DNS-rebinding defence). */
  allowedHosts: string[]
  /** Emails and phone numbers hidden from the model, the audit and screenshots (TANDEM_REDACT_EMAILS/PHONES). */
  redact: { emails: boolean; phones: boolean }
  /** The folder upload steps take files from (TANDEM_UPLOAD_DIR); none: every upload is refused. */
  uploadDir?: string
  /** Named secrets (TANDEM_SECRET_<NAME>) are read by lib/privacy/secrets.ts and never kept here, where they could leak. */
  llm: {
    baseUrl?: string
    apiKey?: string
    model?: string
    vision: boolean
    timeoutMs: number
    maxSteps: number
    maxPromptTokens: number
  }
}

const flag = (value: string | undefined) => /^(1|true|yes|on)$/i.test(value || '')

const int = (value: string | undefined, fallback: number) => {
  const n = Number.parseInt(value ?? '', 10)
  return Number.isFinite(n) && n > 0 ? n : fallback
}

/**
 * Bounds on a connection, so a client that sends its headers or body a byte at a time (or not at all) is closed
 * instead of holding a socket for minutes. Node answers 408 and closes the socket when one is passed.
 */
export interface HttpTimeouts {
  /** Until the request's headers are in (TANDEM_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number
  /**
   * Until the whole request, body included, is in (TANDEM_REQUEST_TIMEOUT_MS). A long-poll's wait (up to 20 s) comes
   * after its request is in and is not cut by it; the default stays well above it all the same.
   */
  requestTimeoutMs: number
  /** An idle kept-alive connection is closed after this (TANDEM_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number
  /** How often those bounds are checked: a connection is closed at most this long after its bound. */
  checkIntervalMs: number
}

export function httpTimeoutsOf(env: NodeJS.ProcessEnv = process.env): HttpTimeouts {
  const requestTimeoutMs = int(env.TANDEM_REQUEST_TIMEOUT_MS, 60_000)
  // Node refuses a headers bound above the request's.
  const headersTimeoutMs = Math.min(int(env.TANDEM_HEADERS_TIMEOUT_MS, 15_000), requestTimeoutMs)
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: int(env.TANDEM_KEEP_ALIVE_TIMEOUT_MS, 5_000),
    checkIntervalMs: Math.max(50, Math.min(1_000, Math.floor(headersTimeoutMs / 4))),
  }
}

export type StoreKind = 'fs' | 'redis'
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379'
const STORES: StoreKind[] = ['fs', 'redis']

/** A setting that would start a server on the wrong store: refuse to start, and say what to set. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

function storeOf(value: string | undefined): StoreKind {
  const store = (value || 'fs').trim().toLowerCase()
  if (!(STORES as string[]).includes(store)) throw new ConfigError(`TANDEM_STORE must be "fs" or "redis"; it is ${JSON.stringify(value)}.`)
  return store as StoreKind
}

function redisUrlOf(value: string | undefined): string {
  const raw = value || DEFAULT_REDIS_URL
  let url: URL | undefined
  try {
    url = new URL(raw)
  } catch {}
  // The URL may carry a password: say what is wrong with it without repeating it.
  if (!url || !['redis:', 'rediss:'].includes(url.protocol) || !url.hostname) {
    throw new ConfigError('TANDEM_REDIS_URL must look like redis://host:6379 (or rediss:// for TLS, redis://:password@host:6379/0).')
  }
  return raw
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const store = storeOf(env.TANDEM_STORE)
  return {
    dataDir: resolve(env.TANDEM_DATA_DIR || '.data'),
    auditDir: resolve(env.TANDEM_AUDIT_DIR || 'audit'),
    skillsDir: resolve(env.TANDEM_SKILLS_DIR || 'skills'),
    userSkillsDir: resolve(env.TANDEM_USER_SKILLS_DIR || join(resolve(env.TANDEM_DATA_DIR || '.data'), 'skills')),
    store,
    redisUrl: store === 'redis' ? redisUrlOf(env.TANDEM_REDIS_URL) : env.TANDEM_REDIS_URL || DEFAULT_REDIS_URL,
    token: env.TANDEM_TOKEN || undefined,
    policyFile: env.TANDEM_POLICY_FILE ? resolve(env.TANDEM_POLICY_FILE) : undefined,
    maxBodyBytes: int(env.TANDEM_MAX_BODY_BYTES, 256 * 1024),
    maxReportBytes: int(env.TANDEM_MAX_REPORT_BYTES, 24 * 1024 * 1024),
    maxArtifactBytes: int(env.TANDEM_MAX_ARTIFACT_BYTES, 6 * 1024 * 1024),
    http: httpTimeoutsOf(env),
    redact: { emails: flag(env.TANDEM_REDACT_EMAILS), phones: flag(env.TANDEM_REDACT_PHONES) },
    uploadDir: env.TANDEM_UPLOAD_DIR ? resolve(env.TANDEM_UPLOAD_DIR) : undefined,
    allowedHosts: (env.TANDEM_ALLOWED_HOSTS || '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    llm: {
      baseUrl: env.TANDEM_LLM_BASE_URL || undefined,
      apiKey: env.TANDEM_LLM_API_KEY || undefined,
      model: env.TANDEM_LLM_MODEL || undefined,
      vision: flag(env.TANDEM_LLM_VISION),
      timeoutMs: int(env.TANDEM_LLM_TIMEOUT_MS, 60_000),
      maxSteps: int(env.TANDEM_LLM_MAX_STEPS, 40),
      maxPromptTokens: int(env.TANDEM_LLM_MAX_PROMPT_TOKENS, 12_000),
    },
  }
}
