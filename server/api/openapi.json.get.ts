import { defineEventHandler } from 'h3'
import { useApiReference } from '../lib/app/use-api-reference'

/** The API reference as OpenAPI 3.1, generated from protocol/'s schemas; it holds no data, so it needs no token. */
export default defineEventHandler(() => useApiReference())
