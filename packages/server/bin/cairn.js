#!/usr/bin/env node
// Runs the compiled CLI; builds it first when a fresh clone has not been built yet.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(serverDir, 'dist', 'cli.js');
if (!existsSync(entry)) {
  process.stderr.write('cairn: compiling the server first (npm run build does this too)…\n');
  execFileSync(
    process.execPath,
    [path.resolve(serverDir, '../../node_modules/typescript/bin/tsc'), '-b', serverDir],
    { stdio: 'inherit' },
  );
}
const { main } = await import(entry);
const code = await main(process.argv.slice(2));
if (code >= 0) process.exit(code);
