import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Apart from server-process.ts so that the browser journeys, type-checked with the DOM's types,
// can run a command without taking in the server harness's Node-typed fetch calls.

/** The command line operators run (`npx cairn`), compiled: what ships is what is tested. */
export const CAIRN_BIN = fileURLToPath(new URL('../../bin/cairn.js', import.meta.url));

/** Runs a `cairn` command with `env`; its exit code and output, whatever the code. */
export async function runCairn(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CAIRN_BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', CAIRN_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

/** Runs a `cairn` command (`users create …`, `tokens create …`) with `env`; its stdout. */
export async function cairnCommand(args: string[], env: Record<string, string>): Promise<string> {
  const { code, stdout, stderr } = await runCairn(args, env);
  if (code !== 0) throw new Error(`cairn ${args.join(' ')} exited with ${code}:\n${stderr}`);
  return stdout;
}
