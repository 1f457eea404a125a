/** A community's slug is its address (`/communities/{slug}`); invenio-api.md §1.13. */
export const COMMUNITY_SLUG_MAX = 100;

/** InvenioRDM's wording for slugs, shown by the form and answered by the API alike. */
export const COMMUNITY_SLUG_MESSAGES = {
  length: `Length must be between 1 and ${COMMUNITY_SLUG_MAX}.`,
  chars: 'The identifier should contain only letters, numbers, or dashes.',
  uuid: 'The identifier should not be a UUID.',
  taken: 'A community with this identifier already exists.',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a uuid (slugs may not be: a community is read by uuid or by slug). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * Every problem of a slug as typed (trimmed, compared lower-cased, as the server stores it);
 * empty when it is acceptable. Whether it is taken only the server knows.
 */
export function communitySlugMessages(value: string): string[] {
  const slug = value.trim().toLowerCase();
  const messages: string[] = [];
  if (slug.length < 1 || slug.length > COMMUNITY_SLUG_MAX)
    messages.push(COMMUNITY_SLUG_MESSAGES.length);
  if (slug !== '' && !/^[-\w]+$/.test(slug)) messages.push(COMMUNITY_SLUG_MESSAGES.chars);
  if (isUuid(slug)) messages.push(COMMUNITY_SLUG_MESSAGES.uuid);
  return messages;
}
