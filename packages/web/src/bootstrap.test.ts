import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BOOTSTRAP_ELEMENT_ID,
  readBootstrap,
  readStreamedDraft,
  STREAMED_DRAFT_ELEMENT_ID,
} from './bootstrap';
import { buildDraft } from './test/builders';

/** A JSON script element as the server writes them: the bootstrap in the head, the draft after. */
function injectJson(id: string, json: string, parent: HTMLElement) {
  const script = document.createElement('script');
  script.id = id;
  script.type = 'application/json';
  script.textContent = json;
  parent.append(script);
}

function injectBootstrap(json: string) {
  injectJson(BOOTSTRAP_ELEMENT_ID, json, document.head);
}

afterEach(() => document.getElementById(BOOTSTRAP_ELEMENT_ID)?.remove());

describe('readBootstrap', () => {
  it('runs on defaults without a bootstrap', () => {
    const bootstrap = readBootstrap(document);
    expect(bootstrap.user).toBeNull();
    expect(bootstrap.config).toMatchObject({
      siteName: 'Cairn',
      createUrl: '/api/records',
      csrfCookieName: 'csrftoken',
      csrfHeaderName: 'X-CSRFToken',
      userCommunitiesMemberships: {},
    });
  });

  it('reads what the server injected', () => {
    injectBootstrap(
      JSON.stringify({
        config: {
          siteName: 'Zenodo-like',
          locales: ['en', 'de'],
          userCommunitiesMemberships: { 'c-1': 'curator' },
        },
        user: { id: '7', email: 'ada@example.org', name: 'Ada', isAdmin: false },
        vocabularies: { resourcetypes: [{ id: 'dataset', title: 'Dataset' }] },
        draft: buildDraft(),
        record: null,
        error: null,
      }),
    );
    const bootstrap = readBootstrap(document);
    expect(bootstrap.config.siteName).toBe('Zenodo-like');
    expect(bootstrap.config.createUrl).toBe('/api/records');
    expect(bootstrap.config.userCommunitiesMemberships).toEqual({ 'c-1': 'curator' });
    expect(bootstrap.user?.id).toBe('7');
    expect(bootstrap.draft?.id).toBe('abcde-12345');
  });

  it('drops a part it cannot read without losing the others', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    injectBootstrap(
      JSON.stringify({
        user: { id: '7', email: 'ada@example.org', name: 'Ada', isAdmin: false },
        draft: { metadata: 'not a draft' },
      }),
    );
    const bootstrap = readBootstrap(document);
    expect(bootstrap.draft).toBeNull();
    expect(bootstrap.user?.email).toBe('ada@example.org');
    expect(console.error).toHaveBeenCalled();
  });
});

describe('readStreamedDraft', () => {
  function streamDraft(json: string) {
    injectJson(STREAMED_DRAFT_ELEMENT_ID, json, document.body);
  }

  afterEach(() => document.getElementById(STREAMED_DRAFT_ELEMENT_ID)?.remove());

  it('gives the draft sent at the end of the page, once', async () => {
    const draft = buildDraft({
      id: 'strm1-00001',
      errors: [{ field: 'metadata.title', messages: ['x'] }],
    });
    streamDraft(JSON.stringify(draft));

    expect(await readStreamedDraft(document, 'strm1-00001')).toMatchObject({
      id: 'strm1-00001',
      errors: [{ field: 'metadata.title' }],
    });
    // A later visit to the draft in this tab reads the API's current version.
    expect(await readStreamedDraft(document, 'strm1-00001')).toBeNull();
  });

  it('gives nothing for another draft, a page without one, or JSON it cannot read', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await readStreamedDraft(document, 'strm2-00002')).toBeNull();

    streamDraft(JSON.stringify(buildDraft({ id: 'strm3-00003' })));
    expect(await readStreamedDraft(document, 'strm2-00002')).toBeNull();

    streamDraft('{"id": ');
    expect(await readStreamedDraft(document, 'strm2-00002')).toBeNull();
  });
});
