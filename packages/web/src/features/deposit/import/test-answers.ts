import type { Metadata } from '@cairn/shared';

/*
 * Pieces of what the server answers for the DataCite sample DOI (the server's
 * import-metadata.test.ts reads it), for the dialog's tests.
 */

export const DATACITE_DOI = '10.5061/DRYAD.X3FFBG7M8';

/** One creator matched by ORCID (affiliation by ROR, its id alone), one matched to nothing. */
export const DATACITE_CREATORS: NonNullable<Metadata['creators']> = [
  {
    person_or_org: {
      type: 'personal',
      name: 'Carberry, Josiah',
      given_name: 'Josiah',
      family_name: 'Carberry',
      identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
    },
    affiliations: [{ id: '01ggx4157' }],
  },
  {
    person_or_org: { type: 'personal', name: 'Mulligan, Zoë' },
    affiliations: [{ name: 'Institute of Unlisted Studies' }],
  },
];
