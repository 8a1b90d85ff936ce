import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.join(dir, 'test/types-check.ts');
const DIRECTIVE = /^\s*\/\/ @ts-expect-error\b.*$/;

/** The errors TypeScript reports in `file` under the package's tsconfig when it reads `text` there. */
function errorsOf(text: string): { line: number; message: string }[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(dir, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile;
  host.readFile = (name) => (path.resolve(name) === file ? text : readFile(name));
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (name, version, onError, create) =>
    path.resolve(name) === file
      ? ts.createSourceFile(name, text, version)
      : getSourceFile(name, version, onError, create);
  const program = ts.createProgram([file], config.options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && path.resolve(d.file.fileName) === file)
    .map((d) => ({
      line: d.file!.getLineAndCharacterOfPosition(d.start!).line + 1,
      message: ts.flattenDiagnosticMessageText(d.messageText, ' '),
    }));
}

describe('types', () => {
  const source = readFileSync(file, 'utf8');
  const lines = source.split('\n');
  /** 1-based numbers of the lines each directive stands over. */
  const marked = lines.flatMap((line, i) => (DIRECTIVE.test(line) ? [i + 2] : []));

  it('the example of typed use compiles, every @ts-expect-error meeting its error', () => {
    expect(marked.length).toBeGreaterThanOrEqual(8);
    expect(errorsOf(source)).toEqual([]);
  });

  it('without the directives, each marked line is a type error (the types are not any)', () => {
    // Blank the directive lines, so the numbering stays.
    const stripped = lines.map((line) => (DIRECTIVE.test(line) ? '' : line)).join('\n');
    const errors = errorsOf(stripped);
    const lineOf = new Map(errors.map((e) => [e.line, e.message]));
    for (const line of marked) {
      // An error may be reported on the marked line or, for a multi-line call, the line the directive covers.
      expect(
        lineOf.has(line),
        `line ${line} (${lines[line - 1]!.trim()}) is no error: ${JSON.stringify(errors)}`,
      ).toBe(true);
    }
  });
});
