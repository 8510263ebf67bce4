import { defineEventHandler } from 'h3'
import { handleMcp } from '../lib/app/use-mcp'

/** MCP over Streamable HTTP (the token is checked by middleware/0.guard.ts, as for /api). */
export default defineEventHandler((event) => handleMcp(event))
