import { operations } from '@nogpets/operations';
import { runMain } from '@nogpets/runtime';
import { mcpRouter } from './server.js';

await runMain({ name: 'mcp', mount: (app, runtime) => app.use('/mcp', mcpRouter(runtime, operations)) });
