import { mountApi } from '@nogpets/api';
import { mcpRouter } from '@nogpets/mcp';
import { operations } from '@nogpets/operations';
import type { ServiceParts } from '@nogpets/runtime';
import {
  calendarFeedsRouter,
  createOAuthProvider,
  oauthRouter,
  pagesRouter,
  paymentsRouter,
} from '@nogpets/web';
import { startWorkerIn } from '@nogpets/worker';

/** Everything in one process: API and pages, MCP, and (unless RUN_WORKER=false) the worker. */
export function allInOne(options: { worker: boolean }): ServiceParts {
  return {
    name: 'server',
    mount(app, runtime, publicUrl) {
      // The API and MCP first: the calls assistants make most pass no page or OAuth middleware.
      mountApi(app, runtime, { publicUrl, operations });
      // The business endpoint first: '/mcp' would otherwise see its requests as well.
      app.use('/mcp/business', mcpRouter(runtime, operations, 'business'));
      app.use('/mcp', mcpRouter(runtime, operations, 'person'));
      app.use(oauthRouter(runtime, createOAuthProvider(runtime)));
      app.use(paymentsRouter(runtime));
      app.use(calendarFeedsRouter(runtime));
      app.use(pagesRouter(runtime, { secureCookies: publicUrl().startsWith('https:') }));
    },
    background: options.worker ? startWorkerIn : undefined,
  };
}
