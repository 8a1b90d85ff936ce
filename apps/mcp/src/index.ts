export { createMcpServer, MCP_SERVER_VERSION, mcpRouter } from './server.js';
export { toolOf } from './tools.js';
export { PROMPTS, type PromptDefinition, promptsFor, registerPrompts } from './prompts.js';
