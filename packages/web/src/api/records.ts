import type { CreatorJson } from '@cairn/shared';

/*
 * The record JSON the web app reads is the API's own contract (packages/shared/src/api): the same
 * schemas the server documents its answers with and its tests hold them to.
 */
export { RecordJsonSchema, type FieldError, type RecordJson } from '@cairn/shared';

/** The display name InvenioRDM computes for persons ("Family, Given"), else the given parts. */
export function formatCreatorName(creator: CreatorJson): string {
  const person = creator.person_or_org;
  if (!person) return '';
  if (person.name) return person.name;
  return [person.family_name, person.given_name].filter(Boolean).join(', ');
}
