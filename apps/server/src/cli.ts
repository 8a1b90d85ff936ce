import { runCli } from './cli-program.js';

// `pnpm cli …`: the operator CLI on this process's environment and terminal.
const status = await runCli(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
if (status !== 0) process.exit(status);
