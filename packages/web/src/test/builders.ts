import type { RequestJson } from '@cairn/shared';
import type { RecordJson } from '../api/records';
import { BootstrapSchema, type Bootstrap } from '../bootstrap';

// Absolute links as the server builds them, on another origin than the test page's.
const SITE = 'http://127.0.0.1:5000';

export const RESOURCE_TYPES = [
  { id: 'dataset', title: 'Dataset' },
  { id: 'software', title: 'Software' },
];

export const ADA = { id: '1', email: 'ada@example.org', name: 'Ada Lovelace', isAdmin: false };

/** A new draft as the API returns it after a first save. */
export function buildDraft(overrides: Partial<RecordJson> = {}): RecordJson {
  const id = overrides.id ?? 'abcde-12345';
  return {
    id,
    revision_id: 1,
    status: 'draft',
    is_draft: true,
    is_published: false,
    links: {
      self: `${SITE}/api/records/${id}/draft`,
      self_html: `${SITE}/uploads/${id}`,
      publish: `${SITE}/api/records/${id}/draft/actions/publish`,
      record_html: `${SITE}/records/${id}`,
      preview_html: `${SITE}/records/${id}?preview=1`,
    },
    metadata: {
      title: 'Ocean temperatures',
      creators: [
        {
          person_or_org: {
            type: 'personal',
            family_name: 'Lovelace',
            given_name: 'Ada',
            name: 'Lovelace, Ada',
          },
        },
      ],
      publication_date: '2024-05-01',
      resource_type: { id: 'dataset', title: { en: 'Dataset' } },
    },
    access: { record: 'public', files: 'public' },
    files: { enabled: false },
    pids: {},
    custom_fields: {},
    ...overrides,
  };
}

/** The published record of {@link buildDraft}. */
export function buildRecord(overrides: Partial<RecordJson> = {}): RecordJson {
  const draft = buildDraft(overrides);
  return {
    ...draft,
    status: 'published',
    is_draft: false,
    is_published: true,
    links: {
      self: `${SITE}/api/records/${draft.id}`,
      self_html: `${SITE}/records/${draft.id}`,
    },
    ...overrides,
  };
}

/** A page's bootstrap: a signed-in person and the resource types, unless overridden. */
export function buildBootstrap(overrides: Partial<Bootstrap> = {}): Bootstrap {
  return BootstrapSchema.parse({
    user: ADA,
    vocabularies: { resourcetypes: RESOURCE_TYPES },
    // As the server counts them for a signed-in person: the header then asks nothing at first.
    awaitingRequests: 0,
    ...overrides,
  });
}

/** A community submission request as the API returns it; `links` are added to its own. */
export function buildRequest(
  overrides: Omit<Partial<RequestJson>, 'links'> & { links?: Partial<RequestJson['links']> } = {},
): RequestJson {
  const { links, ...rest } = overrides;
  const api = `${SITE}/api/requests/r-1`;
  return {
    id: 'r-1',
    number: '1',
    type: 'community-submission',
    status: 'created',
    receiver: { community: 'c-1' },
    topic: { record: 'abcde-12345' },
    ...rest,
    links: {
      self: api,
      self_html: `${SITE}/me/requests/r-1`,
      comments: `${api}/comments`,
      timeline: `${api}/timeline`,
      actions: {},
      ...links,
    },
  };
}
