import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Tests that run `cairn serve` as a child process (crashes, races between processes) run the
 * compiled server: compile it when the sources changed since the last build (a no-op otherwise).
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('../../../..', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'packages/server'], {
    cwd: root,
    stdio: 'inherit',
  });
}
