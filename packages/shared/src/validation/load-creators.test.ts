import { describe, expect, it } from 'vitest';
import { loadRecord } from './load-record.js';
import { buildCreator, buildRecordData, buildValidationOptions } from '../test/builders.js';
import { byField } from '../test/field-errors.js';

const options = buildValidationOptions();

/** Loads a valid record with these creators (and, optionally, contributors). */
function loadPeople(creators: unknown[], contributors?: unknown[]) {
  const record = buildRecordData();
  const metadata = { ...record.metadata, creators, contributors };
  const { data, errors } = loadRecord({ ...record, metadata }, options);
  return {
    creators: data.metadata.creators,
    contributors: data.metadata.contributors,
    errors: byField(errors),
  };
}

describe('person_or_org', () => {
  it('is required on every creator', () => {
    const { creators, errors } = loadPeople([buildCreator(), { role: { id: 'editor' } }]);
    expect(errors).toEqual({
      'metadata.creators.1.person_or_org': ['Missing data for required field.'],
    });
    expect(creators?.[1]).toEqual({ role: { id: 'editor' } });
  });

  it('needs a type of personal or organizational', () => {
    const { creators, errors } = loadPeople([
      { person_or_org: { family_name: 'Curie' } },
      { person_or_org: { type: 'robot', name: 'R2' } },
    ]);
    expect(errors).toEqual({
      'metadata.creators.0.person_or_org.type': [
        "Invalid value. Choose one of ['organizational', 'personal'].",
      ],
      'metadata.creators.1.person_or_org.type': [
        "Invalid value. Choose one of ['organizational', 'personal'].",
      ],
    });
    // Without a valid type the names are kept as typed, for the user to finish.
    expect(creators).toEqual([
      { person_or_org: { family_name: 'Curie' } },
      { person_or_org: { name: 'R2' } },
    ]);
  });

  it('needs a family name for a person, keeping the rest', () => {
    const { creators, errors } = loadPeople([
      { person_or_org: { type: 'personal', given_name: 'Marie' } },
    ]);
    expect(errors).toEqual({
      'metadata.creators.0.person_or_org.family_name': ['Family name cannot be blank.'],
    });
    expect(creators).toEqual([
      { person_or_org: { type: 'personal', given_name: 'Marie', name: 'Marie' } },
    ]);
  });

  it('keeps the name of a person sent without a family name, exactly as sent', () => {
    const sent = [
      { person_or_org: { type: 'personal', name: 'Doe, Jane' } },
      { person_or_org: { type: 'personal', given_name: 'Jane', name: 'Doe, Jane' } },
    ];
    const { creators, errors } = loadPeople(sent);
    expect(errors).toEqual({
      'metadata.creators.0.person_or_org.family_name': ['Family name cannot be blank.'],
      'metadata.creators.1.person_or_org.family_name': ['Family name cannot be blank.'],
    });
    expect(creators).toEqual(sent);
  });

  it('needs a name for an organisation', () => {
    expect(
      loadPeople([{ person_or_org: { type: 'organizational', given_name: 'x' } }]).errors,
    ).toEqual({
      'metadata.creators.0.person_or_org.name': ['Name cannot be blank.'],
    });
  });

  it('computes "Family, Given" for a person, replacing any name sent', () => {
    const { creators } = loadPeople([
      {
        person_or_org: {
          type: 'personal',
          given_name: 'Marie',
          family_name: 'Curie',
          name: 'M. Curie',
        },
      },
      { person_or_org: { type: 'personal', family_name: 'Plato' } },
    ]);
    expect(creators?.[0]?.person_or_org?.name).toBe('Curie, Marie');
    expect(creators?.[1]?.person_or_org?.name).toBe('Plato');
  });

  it("removes an organisation's given and family names", () => {
    const { creators, errors } = loadPeople([
      {
        person_or_org: { type: 'organizational', name: 'CERN', given_name: 'x', family_name: 'y' },
      },
    ]);
    expect(errors).toEqual({});
    expect(creators).toEqual([{ person_or_org: { type: 'organizational', name: 'CERN' } }]);
  });

  it('reports non-string names and drops them', () => {
    const { creators, errors } = loadPeople([
      { person_or_org: { type: 'personal', family_name: ['Curie'], given_name: 1 } },
    ]);
    expect(errors).toEqual({
      'metadata.creators.0.person_or_org.given_name': ['Not a valid string.'],
      'metadata.creators.0.person_or_org.family_name': ['Not a valid string.'],
    });
    expect(creators).toEqual([{ person_or_org: { type: 'personal' } }]);
  });

  it('drops a creator that is not an object', () => {
    const { creators, errors } = loadPeople(['Curie, Marie', buildCreator()]);
    expect(errors).toEqual({ 'metadata.creators.0': ['Invalid input type.'] });
    expect(creators).toEqual([buildCreator()]);
  });
});

describe('person_or_org.identifiers', () => {
  const person = (identifiers: unknown[]) => [
    { person_or_org: { type: 'personal', family_name: 'Curie', identifiers } },
  ];

  it('detects ORCID, ISNI, GND and ROR when the scheme is left out, and normalises', () => {
    const { creators, errors } = loadPeople([
      {
        person_or_org: {
          type: 'personal',
          family_name: 'Curie',
          identifiers: [
            { identifier: 'https://orcid.org/0000-0002-1825-0097' },
            { identifier: 'gnd:4074335-4' },
          ],
        },
      },
      {
        person_or_org: {
          type: 'organizational',
          name: 'CERN',
          identifiers: [
            { identifier: 'https://ror.org/01ggx4157' },
            { identifier: '0000 0001 2103 2683' },
          ],
        },
      },
    ]);
    expect(errors).toEqual({});
    expect(creators?.[0]?.person_or_org?.identifiers).toEqual([
      { scheme: 'orcid', identifier: '0000-0002-1825-0097' },
      { scheme: 'gnd', identifier: 'gnd:4074335-4' },
    ]);
    expect(creators?.[1]?.person_or_org?.identifiers).toEqual([
      { scheme: 'ror', identifier: '01ggx4157' },
      { scheme: 'isni', identifier: '0000 0001 2103 2683' },
    ]);
  });

  it('drops only the bad identifier entry, not the creator', () => {
    const { creators, errors } = loadPeople(
      person([
        { identifier: '0000-0002-1825-0097', scheme: 'orcid' },
        { identifier: '0000-0002-1825-0098', scheme: 'orcid' },
      ]),
    );
    expect(errors).toEqual({
      'metadata.creators.0.person_or_org.identifiers.1.identifier': ['Invalid ORCID identifier.'],
    });
    expect(creators).toEqual([
      {
        person_or_org: {
          type: 'personal',
          family_name: 'Curie',
          name: 'Curie',
          identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
        },
      },
    ]);
  });

  it('names the scheme a mistyped value was meant for, even without a scheme', () => {
    expect(loadPeople(person([{ identifier: '0000-0002-1825-0098' }])).errors).toEqual({
      'metadata.creators.0.person_or_org.identifiers.0.identifier': ['Invalid ORCID identifier.'],
    });
    expect(loadPeople(person([{ identifier: '01ggx4158' }])).errors).toEqual({
      'metadata.creators.0.person_or_org.identifiers.0.identifier': ['Invalid ROR identifier.'],
    });
  });

  it('answers an undetectable value or a scheme outside ORCID, ISNI, GND, ROR with "Invalid scheme."', () => {
    expect(
      loadPeople(
        person([
          { identifier: 'Marie Curie' },
          { identifier: '10.1234/x' },
          { identifier: 'x', scheme: 'doi' },
        ]),
      ).errors,
    ).toEqual({
      'metadata.creators.0.person_or_org.identifiers.0.scheme': ['Invalid scheme.'],
      'metadata.creators.0.person_or_org.identifiers.1.scheme': ['Invalid scheme.'],
      'metadata.creators.0.person_or_org.identifiers.2.scheme': ['Invalid scheme.'],
    });
  });

  it('allows one identifier per scheme: exact repeats are dropped, different values kept for the user to choose', () => {
    const repeated = loadPeople(
      person([
        { identifier: '0000-0002-1825-0097' },
        { identifier: 'https://orcid.org/0000-0002-1825-0097' },
      ]),
    );
    expect(repeated.errors).toEqual({
      'metadata.creators.0.person_or_org.identifiers': [
        'Only one identifier per scheme is allowed.',
      ],
    });
    expect(repeated.creators?.[0]?.person_or_org?.identifiers).toEqual([
      { scheme: 'orcid', identifier: '0000-0002-1825-0097' },
    ]);

    const conflicting = loadPeople(
      person([{ identifier: '0000-0002-1825-0097' }, { identifier: '0000-0002-1694-233X' }]),
    );
    expect(conflicting.errors).toEqual({
      'metadata.creators.0.person_or_org.identifiers': [
        'Only one identifier per scheme is allowed.',
      ],
    });
    expect(conflicting.creators?.[0]?.person_or_org?.identifiers).toHaveLength(2);
  });
});

describe('affiliations', () => {
  it('takes an id or a free-text name, ignoring the name a vocabulary affiliation comes back with', () => {
    const { creators, errors } = loadPeople([
      buildCreator(1, { affiliations: [{ id: '01ggx4157', name: 'CERN' }, { name: 'My lab' }] }),
    ]);
    expect(errors).toEqual({});
    expect(creators?.[0]?.affiliations).toEqual([{ id: '01ggx4157' }, { name: 'My lab' }]);
  });

  it('needs one of them', () => {
    expect(
      loadPeople([{ ...buildCreator(1), affiliations: [{ acronym: 'CERN' }] }]).errors,
    ).toEqual({
      'metadata.creators.0.affiliations.0': ['An existing id or a free text name must be present.'],
    });
  });

  it('drops duplicates and names them', () => {
    const { creators, errors } = loadPeople([
      buildCreator(1, {
        affiliations: [
          { id: '01ggx4157' },
          { name: 'My lab' },
          { id: '01ggx4157' },
          { name: 'My lab' },
          { name: 'Other' },
        ],
      }),
    ]);
    expect(errors).toEqual({
      'metadata.creators.0.affiliations': ['Duplicated affiliations: 01ggx4157, My lab'],
    });
    expect(creators?.[0]?.affiliations).toEqual([
      { id: '01ggx4157' },
      { name: 'My lab' },
      { name: 'Other' },
    ]);
  });
});

describe('role', () => {
  it('is optional for creators and required for contributors', () => {
    const creator = buildCreator(1);
    delete creator.role;
    const { contributors, errors } = loadPeople([creator], [creator]);
    expect(errors).toEqual({
      'metadata.contributors.0.role': ['Missing data for required field.'],
    });
    expect(contributors).toEqual([creator]);
  });

  it('follows the same person rules for contributors', () => {
    expect(
      loadPeople(
        [buildCreator()],
        [{ person_or_org: { type: 'organizational' }, role: { id: 'editor' } }],
      ).errors,
    ).toEqual({ 'metadata.contributors.0.person_or_org.name': ['Name cannot be blank.'] });
  });
});

describe('paths and blanks', () => {
  it('skips blank rows silently but keeps the indexes the client sent in error paths', () => {
    const { creators, errors } = loadPeople([
      buildCreator(1),
      {
        person_or_org: { type: '', family_name: '', identifiers: [{ identifier: '' }] },
        affiliations: [],
      },
      { person_or_org: { type: 'personal' } },
    ]);
    expect(errors).toEqual({
      'metadata.creators.2.person_or_org.family_name': ['Family name cannot be blank.'],
    });
    expect(creators).toEqual([buildCreator(1), { person_or_org: { type: 'personal' } }]);
  });

  it('reports every problem of every creator, not just the first', () => {
    const { errors } = loadPeople([
      { person_or_org: { type: 'personal' } },
      { person_or_org: { type: 'organizational' } },
      {
        person_or_org: { type: 'personal', family_name: 'X', identifiers: [{ identifier: 'bad' }] },
      },
    ]);
    expect(Object.keys(errors)).toEqual([
      'metadata.creators.0.person_or_org.family_name',
      'metadata.creators.1.person_or_org.name',
      'metadata.creators.2.person_or_org.identifiers.0.scheme',
    ]);
  });
});
