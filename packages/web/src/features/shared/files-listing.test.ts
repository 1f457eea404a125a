import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../api/client';
import { buildBootstrap, buildDraft, buildRecord } from '../../test/builders';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { readFilesListing, startEarlyListing } from './files-listing';

const api = new ApiClient({ csrfCookieName: 'csrftoken', csrfHeaderName: 'X-CSRFToken' });

const listing = (keys: string[]) =>
  jsonResponse(200, {
    enabled: true,
    entries: keys.map((key) => ({ key, status: 'completed', size: 1 })),
    total: keys.length,
    links: {},
  });

const omitted = { enabled: true, count: 101, entries: {}, entries_omitted: true };

describe('the files listing read as the page starts', () => {
  it('is asked for at once on the deposit page, and taken once by the uploader', async () => {
    const requests = stubFetch(() => listing(['a.csv']));
    startEarlyListing(
      api,
      buildBootstrap({ filesListing: '/api/records/early-00001/draft/files' }),
      { pathname: '/uploads/early-00001' },
    );
    // Before the page has rendered anything.
    expect(requests.map((r) => r.url)).toEqual([
      '/api/records/early-00001/draft/files?page=1&size=1000',
    ]);

    // The uploader names the draft's own (absolute) link to the same listing.
    const link = `${window.location.origin}/api/records/early-00001/draft/files`;
    expect((await readFilesListing(api, link)).map((e) => e.key)).toEqual(['a.csv']);
    expect(requests).toHaveLength(1);
    // A later visit in this tab reads the files as they are then.
    await readFilesListing(api, link);
    expect(requests).toHaveLength(2);
  });

  it('is asked for on a landing page only when its reader may see the files', () => {
    const requests = stubFetch(() => listing([]));
    const open = buildRecord({ id: 'early-00002', files: omitted });
    const restricted = buildRecord({
      id: 'early-00003',
      files: omitted,
      access: { record: 'public', files: 'restricted' },
    });
    startEarlyListing(api, buildBootstrap({ record: restricted }), {
      pathname: '/records/early-00003',
    });
    expect(requests).toHaveLength(0);
    startEarlyListing(api, buildBootstrap({ record: open }), { pathname: '/records/early-00002' });
    expect(requests.map((r) => r.url)).toEqual(['/api/records/early-00002/files?page=1&size=1000']);
  });

  it('is not asked for when the JSON carries the entries, or the page is another', () => {
    const requests = stubFetch(() => listing([]));
    const record = buildRecord({ id: 'early-00004' });
    startEarlyListing(api, buildBootstrap({ record }), { pathname: '/records/early-00004' });
    startEarlyListing(api, buildBootstrap({ draft: buildDraft({ files: omitted }) }), {
      pathname: '/uploads/new',
    });
    startEarlyListing(
      api,
      buildBootstrap({ record: buildRecord({ id: 'early-00005', files: omitted }) }),
      { pathname: '/records/early-00006' },
    );
    expect(requests).toHaveLength(0);
  });
});
