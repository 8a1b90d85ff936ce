/** What the load scripts share: starting a server in a child process and waiting for its ready line. */
import { type ChildProcess, spawn } from 'node:child_process';

export function start(
  cmd: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...cmd], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = out.match(ready);
      if (m) {
        // From here on the server's log lines are drained and dropped, not kept or searched.
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve({ child, match: m });
      }
    };
    child.stdout?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}
