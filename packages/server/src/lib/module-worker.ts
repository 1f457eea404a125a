import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running one of this package's modules, given the URL of its compiled `.js`.
 * Where only the TypeScript source is there (Vitest runs the sources), the worker first registers
 * hooks that strip types (src/test/typescript-loader.js), so that tests run the same worker.
 */
export function moduleWorker(url: URL, options: WorkerOptions = {}): Worker {
  const source = new URL(url.href.replace(/\.js$/, '.ts'));
  if (fs.existsSync(fileURLToPath(url)) || !fs.existsSync(fileURLToPath(source))) {
    return new Worker(url, options);
  }
  const hooks = new URL('../test/typescript-loader.js', import.meta.url);
  const boot = `import { register } from 'node:module';
register(${JSON.stringify(hooks.href)});
await import(${JSON.stringify(source.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), options);
}
