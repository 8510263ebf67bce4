import { defineEventHandler } from 'h3'
import { useEngine } from '../lib/app/use-engine'

/** The extensions that have called in (version, user agent, first and last seen), newest first. */
export default defineEventHandler(async () => ({ ok: true, data: await useEngine().listClients() }))
