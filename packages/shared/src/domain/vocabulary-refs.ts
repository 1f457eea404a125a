import type { Creator } from './creator.js';
import type { RecordData } from './record.js';
import type { VocabularyType } from './vocabulary.js';

/** One vocabulary id the record refers to, with the path of the object holding it. */
export interface VocabularyRefUse {
  type: VocabularyType;
  id: string;
  field: string;
}

function collectPeople(
  people: readonly Creator[] | undefined,
  list: 'creators' | 'contributors',
  roleType: VocabularyType,
  out: VocabularyRefUse[],
): void {
  people?.forEach((person, i) => {
    const path = `metadata.${list}.${i}`;
    if (person.role !== undefined)
      out.push({ type: roleType, id: person.role.id, field: `${path}.role` });
    person.affiliations?.forEach((affiliation, j) => {
      if (affiliation.id !== undefined) {
        out.push({ type: 'affiliations', id: affiliation.id, field: `${path}.affiliations.${j}` });
      }
    });
  });
}

/**
 * Every vocabulary reference `{id}` in the data, in document order, so the server can check that
 * each id exists (InvenioRDM fails the whole save with "Invalid value <id>." when one does not).
 * Free-text entries (affiliation or funder names, keywords, custom licenses) are not references.
 * `field` is the path of the object holding the id, e.g. `metadata.creators.3.role`.
 */
export function collectVocabularyRefs(data: RecordData): VocabularyRefUse[] {
  const m = data.metadata;
  const out: VocabularyRefUse[] = [];
  if (m.resource_type !== undefined) {
    out.push({ type: 'resourcetypes', id: m.resource_type.id, field: 'metadata.resource_type' });
  }
  m.additional_titles?.forEach((title, i) => {
    const path = `metadata.additional_titles.${i}`;
    if (title.type !== undefined)
      out.push({ type: 'titletypes', id: title.type.id, field: `${path}.type` });
    if (title.lang !== undefined)
      out.push({ type: 'languages', id: title.lang.id, field: `${path}.lang` });
  });
  collectPeople(m.creators, 'creators', 'creatorsroles', out);
  collectPeople(m.contributors, 'contributors', 'contributorsroles', out);
  m.additional_descriptions?.forEach((description, i) => {
    const path = `metadata.additional_descriptions.${i}`;
    if (description.type !== undefined) {
      out.push({ type: 'descriptiontypes', id: description.type.id, field: `${path}.type` });
    }
    if (description.lang !== undefined) {
      out.push({ type: 'languages', id: description.lang.id, field: `${path}.lang` });
    }
  });
  m.rights?.forEach((rights, i) => {
    if (rights.id !== undefined)
      out.push({ type: 'licenses', id: rights.id, field: `metadata.rights.${i}` });
  });
  m.subjects?.forEach((subject, i) => {
    if (subject.id !== undefined)
      out.push({ type: 'subjects', id: subject.id, field: `metadata.subjects.${i}` });
  });
  m.languages?.forEach((language, i) => {
    out.push({ type: 'languages', id: language.id, field: `metadata.languages.${i}` });
  });
  m.dates?.forEach((date, i) => {
    if (date.type !== undefined)
      out.push({ type: 'datetypes', id: date.type.id, field: `metadata.dates.${i}.type` });
  });
  m.related_identifiers?.forEach((related, i) => {
    const path = `metadata.related_identifiers.${i}`;
    if (related.relation_type !== undefined) {
      out.push({
        type: 'relationtypes',
        id: related.relation_type.id,
        field: `${path}.relation_type`,
      });
    }
    if (related.resource_type !== undefined) {
      out.push({
        type: 'resourcetypes',
        id: related.resource_type.id,
        field: `${path}.resource_type`,
      });
    }
  });
  m.funding?.forEach((funding, i) => {
    const path = `metadata.funding.${i}`;
    if (funding.funder?.id !== undefined)
      out.push({ type: 'funders', id: funding.funder.id, field: `${path}.funder` });
    if (funding.award?.id !== undefined)
      out.push({ type: 'awards', id: funding.award.id, field: `${path}.award` });
  });
  return out;
}
