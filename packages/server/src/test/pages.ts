import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine } from '../database/database.js';
import { createTestApp, type TestApp } from './app.js';

// The web app's own index.html as the shell: what the pages module fills in is what is tested.
const SOURCE_SHELL = fileURLToPath(new URL('../../../web/index.html', import.meta.url));

/** What a test's web build holds beside the source shell. */
export interface TestWebBuild {
  /** Tags after the head marker, where `vite build` puts the entry script and its links. */
  afterMarker?: string;
  /** Vite's build manifest (`.vite/manifest.json`); none when left out. */
  manifest?: object;
}

/**
 * The test app serving pages from a web build in a temporary folder, made of the source
 * index.html and what `build` adds; closing the app removes the folder.
 */
export async function createPagesTestApp(
  engine: Engine,
  env: Record<string, string> = {},
  build: TestWebBuild = {},
): Promise<TestApp> {
  const dist = await mkdtemp(path.join(os.tmpdir(), 'cairn-shell-'));
  await mkdir(path.join(dist, 'assets'));
  let shell = await readFile(SOURCE_SHELL, 'utf8');
  if (build.afterMarker) {
    shell = shell.replace('<!--cairn-head-->', `<!--cairn-head-->\n    ${build.afterMarker}`);
  }
  await writeFile(path.join(dist, 'index.html'), shell);
  if (build.manifest) {
    await mkdir(path.join(dist, '.vite'));
    await writeFile(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(build.manifest));
  }
  const t = await createTestApp(engine, env, { webDist: dist });
  const close = t.close.bind(t);
  return Object.assign(t, {
    async close() {
      await close();
      await rm(dist, { recursive: true, force: true });
    },
  });
}

/** The bootstrap JSON a page carries in its head. */
export function bootstrapOf(html: string): Record<string, any> {
  const match = /<script id="cairn-bootstrap" type="application\/json">([\s\S]*?)<\/script>/.exec(
    html,
  );
  if (!match?.[1]) throw new Error('no bootstrap in the page');
  return JSON.parse(match[1]) as Record<string, any>;
}
