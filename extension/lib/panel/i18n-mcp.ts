/** A task an outside agent drives over MCP: who chooses its steps, and that the risky ones are still the person's. */
export const mcpEn = {
  'mcp.drivenBy': '{name}, an outside agent connected over MCP, chooses each step; you approve the risky ones here.',
  'mcp.waiting': 'Waiting for {name} to choose the next step.',
}

export const mcpZh: Record<keyof typeof mcpEn, string> = {
  'mcp.drivenBy': '{name}（通过 MCP 连接的外部智能体）决定每一步；有风险的步骤仍由你在这里批准。',
  'mcp.waiting': '正在等待 {name} 决定下一步。',
}
