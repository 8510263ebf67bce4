/** The version the server names itself by: /api/info, MCP's initialize and the API reference say the same. */
export const TANDEM_VERSION = '0.1.0'
