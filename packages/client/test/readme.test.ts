import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

it("the README's first example is examples/book.mjs (which apps/server/test/client.test.ts runs)", async () => {
  const readme = await readFile(path.join(dir, 'README.md'), 'utf8');
  const example = await readFile(path.join(dir, 'examples/book.mjs'), 'utf8');
  const block = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  // The file's opening comment (how to run it) is the README's prose.
  const code = example.replace(/^(\/\/.*\n)+/, '');
  expect(block).toBe(code);
});
