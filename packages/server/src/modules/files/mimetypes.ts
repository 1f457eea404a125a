// Research data comes in a long tail of formats; these are the ones a browser or a previewer
// treats specially. Everything else is served as application/octet-stream (and downloaded).
const BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  jsonld: 'application/ld+json',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  html: 'text/html',
  htm: 'text/html',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  tar: 'application/x-tar',
  bz2: 'application/x-bzip2',
  xz: 'application/x-xz',
  '7z': 'application/x-7z-compressed',
  nc: 'application/x-netcdf',
  h5: 'application/x-hdf5',
  hdf5: 'application/x-hdf5',
  fits: 'application/fits',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  ipynb: 'application/x-ipynb+json',
  py: 'text/x-python',
  r: 'text/x-r',
  ts: 'text/plain',
  js: 'text/javascript',
  c: 'text/x-c',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  parquet: 'application/vnd.apache.parquet',
};

/** The extension as InvenioRDM reports it (`ext`): lower-case, without the dot. */
export function extensionOf(key: string): string | undefined {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : undefined;
}

/** A MIME type guessed from the file name. */
export function mimetypeOf(key: string): string {
  const ext = extensionOf(key);
  return (ext && BY_EXTENSION[ext]) ?? 'application/octet-stream';
}

/**
 * Types a browser may render inline from our origin without running anything. HTML, SVG and
 * XML can carry scripts, so they are always downloaded.
 */
export function isSafeInline(mimetype: string): boolean {
  return /^(text\/(plain|csv|tab-separated-values|markdown)|image\/(png|jpeg|gif|webp|tiff)|application\/(pdf|json)|video\/|audio\/)/.test(
    mimetype,
  );
}
