import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOOTSTRAP_ELEMENT_ID, readBootstrap } from './bootstrap';
import { buildDraft } from './test/builders';

function injectBootstrap(json: string) {
  const script = document.createElement('script');
  script.id = BOOTSTRAP_ELEMENT_ID;
  script.type = 'application/json';
  script.textContent = json;
  document.head.append(script);
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
    });
  });

  it('reads what the server injected', () => {
    injectBootstrap(
      JSON.stringify({
        config: { siteName: 'Zenodo-like', locales: ['en', 'de'] },
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
