/**
 * The wait before the next try of something that failed `attempts` times (1 after the first
 * failure): `baseMs`, doubled with each further failure, never more than `maxMs`. The queues
 * that retry on their own (DOI registration, the e-mail outbox) share it.
 */
export function backoffDelay(baseMs: number, attempts: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 20));
}
