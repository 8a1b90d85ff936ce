import { runMain } from '@nogpets/runtime';
import { mountApi } from './app.js';

await runMain({ name: 'api', mount: (app, runtime, publicUrl) => mountApi(app, runtime, { publicUrl }) });
