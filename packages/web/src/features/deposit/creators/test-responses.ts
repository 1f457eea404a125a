import { jsonResponse, stubFetch, type RecordedRequest } from '../../../test/fetch';

/*
 * API answers for tests of the creators widget, shaped as Cairn's server (and InvenioRDM) sends
 * them: vocabulary searches in the vnd form, names and affiliations as plain JSON hits.
 */

function hits(items: unknown[]) {
  return { hits: { hits: items, total: items.length }, links: {}, sortBy: 'bestmatch' };
}

export const CREATOR_ROLES = [
  { id: 'editor', title_l10n: 'Editor' },
  { id: 'contactperson', title_l10n: 'Contact person' },
  { id: 'researcher', title_l10n: 'Researcher' },
];

export const CONTRIBUTOR_ROLES = [
  { id: 'datacollector', title_l10n: 'Data collector' },
  { id: 'hostinginstitution', title_l10n: 'Hosting institution' },
  { id: 'supervisor', title_l10n: 'Supervisor' },
];

/** Two namesakes, told apart by affiliation and ORCID iD. */
export const NAME_HITS = [
  {
    id: '0000-0002-1825-0097',
    name: 'Lovelace, Ada',
    given_name: 'Ada',
    family_name: 'Lovelace',
    identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
    affiliations: [
      { id: '01ggx4157', name: 'CERN' },
      { id: '01ggx4157', name: 'CERN' },
      { name: 'Analytical Society' },
    ],
  },
  {
    id: '0000-0001-5109-3700',
    name: 'Lovelace, Ada',
    given_name: 'Ada',
    family_name: 'Lovelace',
    identifiers: [{ scheme: 'orcid', identifier: '0000-0001-5109-3700' }],
    affiliations: [{ id: '03yrm5c26', name: 'Stanford University' }],
  },
];

export const AFFILIATION_HITS = [
  {
    id: '01ggx4157',
    name: 'CERN',
    acronym: 'CERN',
    country_name: 'Switzerland',
    location_name: 'Geneva',
    identifiers: [
      { scheme: 'ror', identifier: '01ggx4157' },
      { scheme: 'grid', identifier: 'grid.9132.9' },
      { scheme: 'isni', identifier: '0000 0001 2156 142X' },
    ],
  },
  {
    id: '03yrm5c26',
    name: 'Stanford University',
    country_name: 'United States',
    identifiers: [{ scheme: 'ror', identifier: '03yrm5c26' }],
  },
];

/** The answer to one of the widget's GET requests, or undefined when it is not one of them. */
export function answerCreatorsRequest(request: RecordedRequest): Response | undefined {
  const url = new URL(request.url, 'http://localhost');
  if (request.method !== 'GET') return undefined;
  switch (url.pathname) {
    case '/api/vocabularies/creatorsroles':
      return jsonResponse(200, hits(CREATOR_ROLES));
    case '/api/vocabularies/contributorsroles':
      return jsonResponse(200, hits(CONTRIBUTOR_ROLES));
    case '/api/names': {
      const q = (url.searchParams.get('suggest') ?? '').toLowerCase();
      return jsonResponse(200, hits(NAME_HITS.filter((hit) => hit.name.toLowerCase().includes(q))));
    }
    case '/api/affiliations': {
      const q = (url.searchParams.get('suggest') ?? '').toLowerCase();
      return jsonResponse(
        200,
        hits(AFFILIATION_HITS.filter((hit) => hit.name.toLowerCase().includes(q))),
      );
    }
    default:
      return undefined;
  }
}

/**
 * Answers the widget's vocabulary and suggestion requests, and every other request in order from
 * `responses`; returns only those other requests (the draft saves), as they arrive.
 */
export function stubFetchWithVocabularies(...responses: Response[]): RecordedRequest[] {
  const others: RecordedRequest[] = [];
  stubFetch((request) => {
    const answer = answerCreatorsRequest(request);
    if (answer) return answer;
    others.push(request);
    const response = responses.shift();
    if (!response) throw new Error(`Unexpected request: ${request.method} ${request.url}`);
    return response;
  });
  return others;
}
