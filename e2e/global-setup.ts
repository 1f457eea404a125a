import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CHROMIUM = process.env.CAIRN_CHROMIUM ?? '/usr/bin/chromium';

/** Browser tests need Debian's Chromium and the built web app; say exactly what to do when absent. */
export default function setup(): void {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium was not found at ${CHROMIUM}. Install it with: sudo apt-get install -y chromium`,
    );
  }
  const dist = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '../packages/web/dist/index.html',
  );
  if (!fs.existsSync(dist)) {
    throw new Error('The web app is not built. Run: npm run build (npm test does this first).');
  }
}
