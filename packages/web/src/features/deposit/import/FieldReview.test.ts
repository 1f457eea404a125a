import type { CreatorFormValues } from '@cairn/shared';
import { describe, expect, it } from 'vitest';
import { linesOf } from './FieldReview';
import type { ValueLabels } from './import-lookups';

const LABELS: Record<string, string> = {
  'contributorsroles/datacollector': 'Data collector',
  'creatorsroles/supervisor': 'Supervisor',
};
const labels: ValueLabels = (vocabulary, id) => LABELS[`${vocabulary}/${id}`] ?? id;

function person(family: string, given: string, role: string): CreatorFormValues {
  return {
    person_or_org: {
      type: 'personal',
      given_name: given,
      family_name: family,
      name: '',
      identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
    },
    role,
    affiliations: [{ name: 'CERN' }],
  };
}

describe('linesOf', () => {
  it("names a person's role by its label in the list's own vocabulary", () => {
    expect(
      linesOf('contributors', [person('Nansen', 'Fridtjof', 'datacollector')], labels),
    ).toEqual(['Nansen, Fridtjof · ORCID 0000-0002-1825-0097 · CERN · Data collector']);
    expect(linesOf('creators', [person('Curie', 'Marie', 'supervisor')], labels)).toEqual([
      'Curie, Marie · ORCID 0000-0002-1825-0097 · CERN · Supervisor',
    ]);
  });

  it('leaves out a role not given', () => {
    expect(linesOf('creators', [person('Curie', 'Marie', '')], labels)).toEqual([
      'Curie, Marie · ORCID 0000-0002-1825-0097 · CERN',
    ]);
  });
});
