import { defineEventHandler } from 'h3'
import { useEngine } from '../../lib/app/use-engine'

/** The kinds of write the person always allows, per site, the newest first. */
export default defineEventHandler(async () => ({ ok: true, data: await useEngine().listAllowedWrites() }))
