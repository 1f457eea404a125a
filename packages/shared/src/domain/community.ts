/** A community's slug is its address (`/communities/{slug}`), as in InvenioRDM. */
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

/** A community's access settings as far as who sees it and how records get in. */
export interface CommunityAccessSettings {
  visibility?: string | undefined;
  record_submission_policy?: string | undefined;
  review_policy?: string | undefined;
}

/**
 * How a community takes records, in the terms the server's permissions apply: who sees it, who
 * may submit (members only when submissions are closed or the community is restricted), and
 * whose submissions skip review (`open`: curators, managers and owners; `members`: every
 * member; `closed`: nobody). Unknown values read as the strictest.
 */
export interface CurationPolicy {
  visibility: 'public' | 'restricted';
  submission: 'open' | 'closed';
  review: 'open' | 'members' | 'closed';
}

/** The {@link CurationPolicy} of a community's access settings. */
export function curationPolicyOf(access: CommunityAccessSettings | undefined): CurationPolicy {
  const visibility = access?.visibility === 'restricted' ? 'restricted' : 'public';
  const submission =
    access?.record_submission_policy === 'closed' || visibility === 'restricted'
      ? 'closed'
      : 'open';
  const review =
    access?.review_policy === 'open' || access?.review_policy === 'members'
      ? access.review_policy
      : 'closed';
  return { visibility, submission, review };
}
