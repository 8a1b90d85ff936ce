export { createMcpServer, MCP_SERVER_VERSION, mcpRouter } from './server.js';
export { toolOf } from './tools.js';
