import v8 from 'node:v8';

/**
 * Sets how far V8 lets the heap grow past its live size before the next full collection.
 *
 * The server holds little alive (about 50 MB: vocabularies, prepared statements, the app) but
 * makes garbage fast when it renders records, a harvest or an export page after page. Some of
 * that garbage lives just long enough to reach the old generation, and V8's default for a small
 * heap lets it grow to about four times its live size before collecting: a full OAI-PMH harvest
 * took the resident memory of an idle server up by 130 MB, all of it garbage (a heap snapshot,
 * which collects first, found the idle size again). Capping the growth at 50 % keeps the server
 * near its live size for a few more incremental collections, which cost little at this size.
 *
 * V8 reads this flag whenever it sets the next collection's limit, so setting it at start-up,
 * before the server takes requests, applies it from the first limit on. NODE_OPTIONS refuses this
 * flag (it takes the heap's sizes only), so an operator could not give it to `cairn serve`.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
