import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AccessSchema } from './access.js';
import { AffiliationSchema, CreatorSchema } from './creator.js';
import { CustomFieldsSchema } from './custom-fields.js';
import { MetadataSchema, RightsSchema, SubjectSchema } from './metadata.js';
import { RecordDataSchema } from './record.js';
import { buildCreator, buildRecordData } from '../test/builders.js';

/** Issues as `{path: messages}`, the way the form would show them. */
function issuesOf(result: z.ZodSafeParseResult<unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) {
    const path = issue.path.join('.');
    (out[path] ??= []).push(issue.message);
  }
  return out;
}

describe('the storable-draft schemas', () => {
  it('accept the complete builder record', () => {
    expect(RecordDataSchema.safeParse(buildRecordData()).success).toBe(true);
  });

  it('accept an incomplete draft: required values are for publish, not for storing', () => {
    expect(MetadataSchema.safeParse({}).success).toBe(true);
    expect(CreatorSchema.safeParse({ person_or_org: { given_name: 'Marie' } }).success).toBe(true);
  });

  it("reject values with the wrong format, with InvenioRDM's messages", () => {
    expect(
      issuesOf(
        MetadataSchema.safeParse({
          title: 'ab',
          publication_date: '2020-13',
          version: 'v'.repeat(192),
          identifiers: [{ scheme: 'doi', identifier: 'nope' }],
        }),
      ),
    ).toEqual({
      title: ['Shorter than minimum length 3.'],
      publication_date: ['Please provide a valid date or interval.'],
      version: ['Longer than maximum length 191.'],
      'identifiers.0.identifier': ['Invalid DOI identifier.'],
    });
  });

  it('check creators, affiliations, subjects and rights', () => {
    expect(issuesOf(CreatorSchema.safeParse({ person_or_org: { type: 'robot' } }))).toEqual({
      'person_or_org.type': ["Invalid value. Choose one of ['organizational', 'personal']."],
    });
    expect(
      issuesOf(
        CreatorSchema.safeParse({
          ...buildCreator(),
          person_or_org: {
            type: 'personal',
            identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0098' }],
          },
        }),
      ),
    ).toEqual({ 'person_or_org.identifiers.0.identifier': ['Invalid ORCID identifier.'] });
    expect(issuesOf(AffiliationSchema.safeParse({ id: 'a', name: 'b' }))).toEqual({
      '': ['An existing id or a free text name must be present.'],
    });
    expect(issuesOf(SubjectSchema.safeParse({}))).toEqual({
      '': ['An existing id or a free text subject must be present.'],
    });
    expect(issuesOf(RightsSchema.safeParse({ title: { en: 'A', de: 'B' }, link: 'nope' }))).toEqual(
      {
        title: ['Only one value is accepted.'],
        link: ['Not a valid URL.'],
      },
    );
  });

  it('check custom fields and access', () => {
    expect(
      issuesOf(
        CustomFieldsSchema.safeParse({
          'journal:journal': { issn: '1234-5678' },
          'thesis:thesis': { date_defended: '2020/2021' },
        }),
      ),
    ).toEqual({
      'journal:journal.issn': ['Please provide a valid ISSN.'],
      'thesis:thesis.date_defended': ['Please provide a valid date.'],
    });
    expect(
      issuesOf(
        AccessSchema.safeParse({
          record: 'public',
          files: 'public',
          embargo: { active: true, until: '2030-02-30' },
        }),
      ),
    ).toEqual({
      'embargo.until': ['Not a valid date.'],
    });
  });
});
