/**
 * Named points at which a test can make this process kill itself with SIGKILL, as a power cut or
 * the kernel's OOM killer would, to prove that a crash right there leaves no damage behind.
 *
 * Why this exists: the crash test kills the real server from outside wherever timing allows (while
 * bytes stream, while a commit hashes), but some windows are a few microseconds wide: between a
 * transaction's commit and the store's cleanup, between a rename and the tidy-up after it. No
 * outside kill lands there reliably, and those are exactly the windows where a crash used to
 * leave a file stuck or bytes lost.
 *
 * Armed only by `CAIRN_TEST_CRASH_AT=<point>`, read once at start-up; the configuration refuses
 * the variable unless `NODE_ENV=test`. Unarmed, a point is one comparison of two strings.
 */
export const CRASH_POINTS = [
  /** A files init wrote its rows; their multipart uploads are not started yet. */
  'init:rows-written',
  /** A one-request upload's bytes are stored under their key; the row does not know them yet. */
  'upload:stored',
  /** A multipart commit has assembled the bytes in the store; the row is still `committing`. */
  'commit:assembled',
  /** The local store moved an upload's assembled bytes into place; its folder is still there. */
  'store:moved-into-place',
  /** Inside the publish transaction, the draft's files moved to the record, nothing committed. */
  'publish:files-moved',
  /** Inside the files-import transaction, the previous version's files copied, not committed. */
  'files-import:copied',
  /** A transaction released files (publish, delete, discard); their bytes are not freed yet. */
  'release:before-bytes',
  /** A vocabulary import wrote its first batch inside its transaction. */
  'vocabularies-import:batch-written',
  /** The abandoned-uploads sweep removed a row; the upload's bytes are not freed yet. */
  'sweep:row-removed',
  /** The e-mail sender claimed a batch of messages (their lease is committed); none is sent. */
  'mail:claimed',
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];

const armed = process.env.CAIRN_TEST_CRASH_AT;

/** Dies here, at once and without cleanup, when the test armed this point; otherwise nothing. */
export function crashPoint(point: CrashPoint): void {
  if (armed === point) process.kill(process.pid, 'SIGKILL');
}
