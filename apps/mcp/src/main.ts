import { operations } from '@nogpets/operations';
import { runMain } from '@nogpets/runtime';
import { mcpRouter } from './server.js';

await runMain({
  name: 'mcp',
  mount: (app, runtime) => {
    // The business endpoint first: '/mcp' would otherwise see its requests as well.
    app.use('/mcp/business', mcpRouter(runtime, operations, 'business'));
    app.use('/mcp', mcpRouter(runtime, operations, 'person'));
  },
});
