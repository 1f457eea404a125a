import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RecordJson } from '../../api/records';
import { buildDraft } from '../../test/builders';
import { jsonResponse, stubFetch, type RecordedRequest } from '../../test/fetch';
import { renderController } from '../../test/renderController';
import { REFRESH_GAP_MS } from './useDepositController';

const DRAFT = buildDraft({ files: { enabled: true } });

/** The draft as the server holds it after `count` files were added to it. */
function withFiles(count: number): RecordJson {
  const entries = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`f${i}.csv`, { key: `f${i}.csv`, size: 1 }]),
  );
  return { ...DRAFT, revision_id: 1 + 2 * count, files: { enabled: true, entries } };
}

/** A request the test answers when it chooses. */
function held() {
  let answer!: (response: Response) => void;
  const response = new Promise<Response>((resolve) => (answer = resolve));
  return { response, answer };
}

const reads = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'GET');

describe('re-reading the draft after its files changed', () => {
  it('answers the changes made while a read is on its way with one more read, not one each', async () => {
    const first = held();
    let gets = 0;
    const requests = stubFetch((r) => {
      if (r.method !== 'GET') throw new Error(`Unexpected request: ${r.method} ${r.url}`);
      gets++;
      readAt.push(performance.now());
      return gets === 1 ? first.response : jsonResponse(200, withFiles(3));
    });
    const readAt: number[] = [];
    const { controller } = renderController(DRAFT);

    // Three files uploaded: each one's creation and commit change the draft.
    const refreshes = Array.from({ length: 6 }, () => controller().refreshAfterFileChange());
    const answeredAt = performance.now();
    first.answer(jsonResponse(200, withFiles(1)));
    await Promise.all(refreshes);
    // The next read waits a while after the last: each re-renders the whole form.
    expect(readAt[1]! - answeredAt).toBeGreaterThanOrEqual(REFRESH_GAP_MS - 5);

    expect(reads(requests).map((r) => r.url)).toEqual([
      '/api/records/abcde-12345/draft?expand=1',
      '/api/records/abcde-12345/draft?expand=1',
    ]);
    await waitFor(() => expect(controller().draft?.revision_id).toBe(7));
    expect(Object.keys(controller().draft?.files?.entries ?? {})).toHaveLength(3);
  });

  it('still re-reads for the changes made while a read failed', async () => {
    const first = held();
    let gets = 0;
    const requests = stubFetch(() => {
      gets++;
      return gets === 1 ? first.response : jsonResponse(200, withFiles(2));
    });
    const { controller } = renderController(DRAFT);

    const failed = controller().refreshAfterFileChange();
    const later = controller().refreshAfterFileChange();
    first.answer(jsonResponse(503, { status: 503, message: 'Busy' }));
    // The read that followed answered both: the failure of the first is no longer the news.
    await Promise.all([failed, later]);

    expect(reads(requests)).toHaveLength(2);
    await waitFor(() => expect(controller().draft?.revision_id).toBe(5));
  });

  it('reports a failed read, and reads again on the next change', async () => {
    let gets = 0;
    const requests = stubFetch(() => {
      gets++;
      return gets === 1
        ? jsonResponse(503, { status: 503, message: 'Busy' })
        : jsonResponse(200, withFiles(1));
    });
    const { controller } = renderController(DRAFT);

    await expect(controller().refreshAfterFileChange()).rejects.toThrow();
    await controller().refreshAfterFileChange();

    expect(reads(requests)).toHaveLength(2);
    await waitFor(() => expect(controller().draft?.revision_id).toBe(3));
  });

  it('reads the draft once it exists, after a change before it was created', async () => {
    const requests = stubFetch((r) =>
      r.method === 'POST' ? jsonResponse(201, DRAFT) : jsonResponse(200, withFiles(1)),
    );
    const { controller } = renderController(null);

    await controller().refreshAfterFileChange();
    expect(requests).toHaveLength(0);
    await controller().ensureDraft();
    await controller().refreshAfterFileChange();

    expect(reads(requests)).toHaveLength(1);
    await waitFor(() => expect(controller().draft?.revision_id).toBe(3));
  });
});
