/**
 * Business constants and limits of the product, shared so the server enforces and the browser shows
 * the same numbers. Values that an instance may override (quota, concurrency) are the defaults.
 */

/** Default maximum number of files per record, unless configuration overrides it. */
export const DEFAULT_MAX_FILES = 5;

/** Default maximum total bytes per record (decimal 10 GB), unless configuration overrides it. */
export const DEFAULT_MAX_STORAGE = 1e10;

/** Files uploaded in parallel by default (configuration `fileUploadConcurrency`). */
export const UPLOAD_CONCURRENCY = 3;

/** Delays before each upload attempt: the first try is immediate, then three retries. */
export const RETRY_DELAYS_MS: readonly number[] = Object.freeze([0, 1000, 3000, 5000]);

/** Transfer type used when configuration names none (`L`, bytes through the app). */
export const DEFAULT_TRANSFER_TYPE = 'L';

/** S3 allows at most this many parts in one multipart upload. */
export const MULTIPART_MAX_PARTS = 10_000;

/** S3's minimum size of every part but the last (5 MiB). */
export const MULTIPART_MIN_CHUNK = 5 * 1024 * 1024;

/**
 * The smallest part a multipart upload is cut into (the second candidate, 16 MiB). Parts of this
 * size keep what an interrupted upload loses to a few parts in flight while each request's own
 * cost stays small beside its bytes; larger candidates are taken only when a file would
 * otherwise need more than MULTIPART_MAX_PARTS parts.
 */
export const MULTIPART_PREFERRED_CHUNK = 16 * 1024 * 1024;

/** S3's maximum size of one part (5 GiB). */
export const MULTIPART_MAX_PART = 0x140000000;

/** S3's maximum object size (5 TiB): the overall cap on one multipart upload. */
export const MULTIPART_MAX_FILE_SIZE = 5 * 1024 ** 4;

/** Number of chunk sizes tried, spaced on a log scale between the minimum and maximum part. */
export const MULTIPART_CHUNK_CANDIDATES = 5;

/** Communities shown per page in the community selection dialog. */
export const COMMUNITY_PAGE_SIZE = 5;

/** Custom and standard license descriptions are cut to this many characters in lists. */
export const LICENSE_DESCRIPTION_MAX = 300;

/** Typing in the external PID (DOI) field is debounced by this long before it is stored. */
export const EXTERNAL_PID_DEBOUNCE_MS = 200;

/** How long the "Save and add another" button reads "Added". */
export const SAVE_AND_ADD_ANOTHER_FEEDBACK_MS = 2000;

/** How long a creator or contributor row added by the last action stays highlighted. */
export const ADDED_ROW_HIGHLIGHT_MS = 2000;

/** Page size of search results when the client asks for none. */
export const SEARCH_DEFAULT_PAGE_SIZE = 25;

/** page × size may not exceed this (InvenioRDM answers "Invalid querystring parameters."). */
export const SEARCH_MAX_WINDOW = 10_000;

/**
 * Levels of objects and arrays a JSON request body may nest, the body's own object or array
 * being the first: a record needs about ten, and every recursive walk of a body stays shallow.
 */
export const JSON_MAX_DEPTH = 64;

/** Longest search text (`q`, `suggest`) any search route accepts, in characters once NFKC-normalised. */
export const SEARCH_QUERY_MAX_LENGTH = 500;

/** Most words (runs of letters and digits once NFKC-normalised) a search text may hold. */
export const SEARCH_QUERY_MAX_WORDS = 32;

/** Minimum length of `metadata.title`, additional titles and descriptions (InvenioRDM's rule). */
export const TITLE_MIN_LENGTH = 3;

/** Minimum length of `metadata.description` and additional descriptions. */
export const DESCRIPTION_MIN_LENGTH = 3;

/** Maximum length of `metadata.version` (the form's help text promises 191 characters). */
export const VERSION_MAX_LENGTH = 191;

/** Creator and contributor lists longer than this get an inline filter in the form. */
export const CREATOR_FILTER_THRESHOLD = 10;

/** Long creator lists are mounted in batches of this many rows per animation frame. */
export const CREATOR_RENDER_BATCH = 30;

/**
 * A draft's or record's JSON embeds its `files.entries` up to this many files, as InvenioRDM
 * does (100 is InvenioRDM's default number of files a record may hold); above it the entries
 * are left out (`files.entries_omitted`) and read from the files listing a page at a time.
 */
export const FILES_EMBEDDED_MAX = 100;

/**
 * The files listing answers at most this many entries at once: unpaginated, as InvenioRDM
 * answers it, up to this many, and pages of at most this size (`?size=&page=`).
 */
export const FILES_LIST_MAX = 1000;

/** Most files one `POST …/draft/files-upload` (a Cairn extension) may carry. */
export const FILES_UPLOAD_BATCH_MAX = 1000;

/**
 * The uploader's batches of small files (configuration `fileUploadBatchFiles`, 64 by default):
 * files of at most FILE_BATCHED_MAX_BYTES go together, up to FILES_UPLOAD_BATCH_BYTES a batch,
 * so that a batch cut off loses little and its progress still moves.
 */
export const UPLOAD_BATCH_FILES = 64;
export const FILE_BATCHED_MAX_BYTES = 1024 * 1024;
export const FILES_UPLOAD_BATCH_BYTES = 8 * 1024 * 1024;
