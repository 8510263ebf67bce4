import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

export interface McpTestClient {
  client: Client
  /** Calls a tool; answers its text lines, its structured envelope and whether it is an error. */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; data: any; error: any; isError: boolean }>
  close(): Promise<void>
}

/** The SDK's own client on the server's /mcp, with the token, named as an outside agent names itself. */
export async function connectMcp(url: string, token: string, name = 'tandem-test-agent', version = '1.2.3'): Promise<McpTestClient> {
  const client = new Client({ name, version })
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: { authorization: `Bearer ${token}` } } })
  await client.connect(transport)
  return {
    client,
    async call(tool, args = {}) {
      const result = (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
      const envelope = result.structuredContent as { ok: boolean; data?: unknown; error?: unknown } | undefined
      return { text, data: envelope?.data, error: envelope?.error, isError: !!result.isError }
    },
    close: () => client.close(),
  }
}
