// Module hooks that let a worker thread run this package's TypeScript sources, as Vitest runs
// the rest: `moduleWorker` (lib/module-worker.ts) registers them when its module has no compiled
// `.js` beside it. Types are stripped file by file by Vite's transform (the one Vitest uses),
// without type checking: tsc does that.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { transformWithOxc } from 'vite';

// Vitest's alias (vitest.config.ts): the shared package's sources rather than its build.
const SHARED = new URL('../../../shared/src/index.ts', import.meta.url).href;

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, next) {
  if (specifier === '@cairn/shared') return { url: SHARED, shortCircuit: true };
  // Sources import each other as `./x.js`, which exists only once compiled.
  if (
    specifier.startsWith('.') &&
    specifier.endsWith('.js') &&
    context.parentURL?.endsWith('.ts')
  ) {
    const url = new URL(specifier, context.parentURL);
    const source = new URL(url.href.replace(/\.js$/, '.ts'));
    if (!existsSync(url) && existsSync(source)) return { url: source.href, shortCircuit: true };
  }
  return next(specifier, context);
}

/** @type {import('node:module').LoadHook} */
export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const file = fileURLToPath(url);
  const { code } = await transformWithOxc(await readFile(file, 'utf8'), file);
  return { format: 'module', source: code, shortCircuit: true };
}
