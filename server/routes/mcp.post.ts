import { defineEventHandler } from 'h3'
import { useMcp } from '../lib/app/use-mcp'
import { handleMcpEvent } from '../lib/mcp/handle-event'

/** MCP over Streamable HTTP (the token is checked by middleware/0.guard.ts, as for /api). */
export default defineEventHandler((event) => handleMcpEvent(useMcp(), event))
