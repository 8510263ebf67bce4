import { defineEventHandler } from 'h3'
import { useEngine } from '../../lib/app/use-engine'

/** The harmless kinds the person wants asked about on a site all the same, the newest first. */
export default defineEventHandler(async () => ({ ok: true, data: await useEngine().listAskAlways() }))
