import { normalizeDoi } from '@cairn/shared';
import { AppError } from '../../../errors.js';
import { fromCrossref } from './csl.js';
import { dataciteAttributes, fromDataCite } from './datacite.js';
import { obj, type ImportedRecord } from './imported.js';

/** Where DOI metadata is read from; each answers `GET …/dois/{doi}` or `…/works/{doi}`. */
export interface DoiSourcesConfig {
  dataciteApiUrl: string;
  crossrefApiUrl: string;
  timeoutMs: number;
  /** Crossref asks clients to name themselves and how to reach them. */
  userAgent: string;
}

/** A read that failed for a reason the person can act on (or wait out). */
class SourceFailure extends Error {
  constructor(
    readonly kind: 'unreachable' | 'timeout' | 'bad-answer',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The JSON at `url`, undefined on 404 (the registry does not know the DOI). Everything else that
 * goes wrong is a SourceFailure: no connection, no answer in time, an answer that is not JSON.
 */
async function getJson(
  url: string,
  name: string,
  config: DoiSourcesConfig,
): Promise<Record<string, unknown> | undefined> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', 'user-agent': config.userAgent },
      signal: AbortSignal.timeout(config.timeoutMs),
      redirect: 'follow',
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw timedOut
      ? new SourceFailure('timeout', `${name} did not answer within ${config.timeoutMs / 1000} s.`)
      : new SourceFailure('unreachable', `${name} could not be reached.`);
  }
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new SourceFailure('bad-answer', `${name} answered ${response.status}.`);
  }
  try {
    const json = obj(await response.json());
    if (json) return json;
  } catch {
    // Falls through to the failure below.
  }
  throw new SourceFailure('bad-answer', `${name} answered something that is not JSON.`);
}

/** What a DOI's registration agency says about its work, and which agency said it. */
export interface DoiMetadata {
  doi: string;
  agency: 'datacite' | 'crossref';
  url: string;
  imported: ImportedRecord;
}

/**
 * Reads a DOI's metadata from DataCite's REST API and, when DataCite does not know it, from
 * Crossref's. Unknown to both: 404. A registry that cannot be reached while the other did not
 * know the DOI: 502 (504 when it did not answer in time), saying which.
 */
export async function fetchDoiMetadata(
  doi: string,
  config: DoiSourcesConfig,
): Promise<DoiMetadata> {
  const normalised = normalizeDoi(doi);
  if (!normalised) {
    throw new AppError('VALIDATION_FAILED', `${doi} is not a DOI.`, [
      { field: 'doi', messages: ['Not a valid DOI (10.prefix/suffix).'] },
    ]);
  }
  const path = encodeURIComponent(normalised).replace(/%2F/gi, '/');
  const failures: SourceFailure[] = [];
  const dataciteUrl = `${config.dataciteApiUrl}/dois/${path}`;
  try {
    const json = await getJson(dataciteUrl, 'DataCite', config);
    if (json) {
      return {
        doi: normalised,
        agency: 'datacite',
        url: dataciteUrl,
        imported: { ...fromDataCite(dataciteAttributes(json)), doi: normalised },
      };
    }
  } catch (error) {
    if (!(error instanceof SourceFailure)) throw error;
    failures.push(error);
  }
  const crossrefUrl = `${config.crossrefApiUrl}/works/${path}`;
  try {
    const json = await getJson(crossrefUrl, 'Crossref', config);
    const message = obj(json?.message);
    if (message) {
      return {
        doi: normalised,
        agency: 'crossref',
        url: crossrefUrl,
        imported: { ...fromCrossref(message), doi: normalised },
      };
    }
    if (json) failures.push(new SourceFailure('bad-answer', 'Crossref answered without a work.'));
  } catch (error) {
    if (!(error instanceof SourceFailure)) throw error;
    failures.push(error);
  }
  if (failures.length === 0) {
    throw new AppError('NOT_FOUND', `Neither DataCite nor Crossref knows the DOI ${normalised}.`);
  }
  const message = `The DOI's metadata could not be read: ${failures.map((f) => f.message).join(' ')} Please retry later.`;
  const timedOut = failures.every((f) => f.kind === 'timeout');
  throw new AppError(timedOut ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_FAILED', message);
}
