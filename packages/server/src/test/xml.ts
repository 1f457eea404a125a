import { spawn } from 'node:child_process';

/**
 * What xmllint (libxml2, Debian's libxml2-utils) says of `xml` against an XML Schema: the empty
 * string when the document is valid. The schemas are the project's own, written from the
 * standards; xmllint is the judge Cairn did not write. `--nonet` keeps it from fetching anything.
 */
export function schemaErrors(xml: string, schemaPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('xmllint', ['--noout', '--nonet', '--schema', schemaPath, '-'], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve(code === 0 ? '' : errors || `xmllint exited ${code}`));
    child.stdin.end(xml);
  });
}
