import {
  COMMUNITY_SLUG_MAX,
  COMMUNITY_SLUG_MESSAGES,
  communitySlugMessages,
  type ErrorItem,
} from '@cairn/shared';
import { sanitizeRichText } from '../../lib/html.js';

/** The community types InvenioRDM ships (vocabulary `communitytypes`), with their titles. */
export const COMMUNITY_TYPES: Record<string, Record<string, string>> = {
  organization: { en: 'Organization', de: 'Organisation' },
  event: { en: 'Event', de: 'Veranstaltung' },
  topic: { en: 'Topic', de: 'Thema' },
  project: { en: 'Project', de: 'Projekt' },
};

export const SLUG_MAX = COMMUNITY_SLUG_MAX;
export const TITLE_MAX = 250;
export const DESCRIPTION_MAX = 250;
export const HTML_MAX = 50_000;

// One wording for the web form and the API (shared/domain/community.ts).
export const SLUG_CHARS_MESSAGE = COMMUNITY_SLUG_MESSAGES.chars;
export const SLUG_TAKEN_MESSAGE = COMMUNITY_SLUG_MESSAGES.taken;
const REQUIRED = 'Missing data for required field.';

export { isUuid } from '@cairn/shared';

export interface CommunityAccess {
  visibility: 'public' | 'restricted';
  members_visibility: 'public' | 'restricted';
  member_policy: 'open' | 'closed';
  record_submission_policy: 'open' | 'closed';
  review_policy: 'open' | 'closed' | 'members';
}

/** What a community stores besides its id, slug and timestamps. */
export interface CommunityData {
  metadata: Record<string, unknown>;
  access: CommunityAccess;
  custom_fields: Record<string, unknown>;
  children: { allow: boolean };
  /** Set by administrators only; `enabled` shows as Verified in the community picker. */
  theme?: { enabled: boolean; brand?: string };
  /** Cairn extension: the community has its own deposit form, reached from its page. */
  upload_form?: { enabled: boolean };
}

const ACCESS_CHOICES: { [K in keyof CommunityAccess]: readonly CommunityAccess[K][] } = {
  visibility: ['public', 'restricted'],
  members_visibility: ['public', 'restricted'],
  member_policy: ['open', 'closed'],
  record_submission_policy: ['open', 'closed'],
  review_policy: ['open', 'closed', 'members'],
};

export const DEFAULT_ACCESS: CommunityAccess = {
  visibility: 'public',
  members_visibility: 'public',
  member_policy: 'open',
  record_submission_policy: 'open',
  review_policy: 'closed',
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** marshmallow's Length messages, so clients see InvenioRDM's wording. */
function lengthError(value: string, min: number, max: number): string | undefined {
  if (value.length >= min && value.length <= max) return undefined;
  return min > 0
    ? `Length must be between ${min} and ${max}.`
    : `Longer than maximum length ${max}.`;
}

/** InvenioRDM's slug rules; the slug comes back lower-cased. */
export function validateSlug(value: unknown, errors: ErrorItem[]): string | undefined {
  if (value === undefined || value === null) {
    errors.push({ field: 'slug', messages: [REQUIRED] });
    return undefined;
  }
  if (typeof value !== 'string') {
    errors.push({ field: 'slug', messages: ['Not a valid string.'] });
    return undefined;
  }
  const slug = value.trim().toLowerCase();
  const messages = communitySlugMessages(slug);
  if (messages.length > 0) {
    errors.push({ field: 'slug', messages });
    return undefined;
  }
  return slug;
}

function readString(
  source: Record<string, unknown>,
  key: string,
  field: string,
  max: number,
  errors: ErrorItem[],
  options: { required?: boolean; html?: boolean } = {},
): string | undefined {
  const value = source[key];
  if (value === undefined || value === null || (value === '' && !options.required)) {
    if (options.required) errors.push({ field, messages: [REQUIRED] });
    return undefined;
  }
  if (typeof value !== 'string') {
    errors.push({ field, messages: ['Not a valid string.'] });
    return undefined;
  }
  const text = options.html ? value : value.trim();
  const length = lengthError(text, options.required ? 1 : 0, max);
  if (length) {
    errors.push({ field, messages: [length] });
    return undefined;
  }
  return options.html ? sanitizeRichText(text) : text;
}

function readMetadata(value: unknown, errors: ErrorItem[]): Record<string, unknown> {
  if (!isObject(value)) {
    errors.push({
      field: 'metadata',
      messages: [value === undefined ? REQUIRED : 'Invalid input type.'],
    });
    return {};
  }
  const metadata: Record<string, unknown> = {};
  const put = (key: string, v: unknown) => {
    if (v !== undefined) metadata[key] = v;
  };
  put('title', readString(value, 'title', 'metadata.title', TITLE_MAX, errors, { required: true }));
  put(
    'description',
    readString(value, 'description', 'metadata.description', DESCRIPTION_MAX, errors),
  );
  put(
    'curation_policy',
    readString(value, 'curation_policy', 'metadata.curation_policy', HTML_MAX, errors, {
      html: true,
    }),
  );
  put('page', readString(value, 'page', 'metadata.page', HTML_MAX, errors, { html: true }));
  const website = readString(value, 'website', 'metadata.website', 2000, errors);
  if (website !== undefined) {
    if (/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(website)) metadata.website = website;
    else errors.push({ field: 'metadata.website', messages: ['Not a valid URL.'] });
  }
  if (value.type !== undefined && value.type !== null) {
    const id = isObject(value.type) ? value.type.id : undefined;
    if (typeof id === 'string' && COMMUNITY_TYPES[id]) metadata.type = { id };
    else errors.push({ field: 'metadata.type', messages: [`Invalid value ${String(id)}.`] });
  }
  if (value.organizations !== undefined) {
    const list = Array.isArray(value.organizations) ? value.organizations : null;
    if (!list) errors.push({ field: 'metadata.organizations', messages: ['Not a valid list.'] });
    else {
      const organizations = list.flatMap((o, i) => {
        const field = `metadata.organizations.${i}`;
        if (!isObject(o)) {
          errors.push({ field, messages: ['Invalid input type.'] });
          return [];
        }
        const id = readString(o, 'id', `${field}.id`, 250, errors);
        const name = readString(o, 'name', `${field}.name`, 250, errors);
        if (id === undefined && name === undefined) {
          errors.push({ field, messages: ['An existing id or a free text name must be present.'] });
          return [];
        }
        return [id !== undefined ? { id } : { name }];
      });
      metadata.organizations = organizations;
    }
  }
  if (value.funding !== undefined) {
    if (Array.isArray(value.funding) && value.funding.every(isObject))
      metadata.funding = value.funding;
    else errors.push({ field: 'metadata.funding', messages: ['Not a valid list.'] });
  }
  return metadata;
}

function readAccess(value: unknown, errors: ErrorItem[]): CommunityAccess {
  const access = { ...DEFAULT_ACCESS };
  if (value === undefined || value === null) return access;
  if (!isObject(value)) {
    errors.push({ field: 'access', messages: ['Invalid input type.'] });
    return access;
  }
  // `record_policy` is the legacy name of `record_submission_policy`; both are accepted.
  const given: Record<string, unknown> = {
    ...value,
    record_submission_policy: value.record_submission_policy ?? value.record_policy,
  };
  for (const key of Object.keys(ACCESS_CHOICES) as Array<keyof CommunityAccess>) {
    const v = given[key];
    if (v === undefined || v === null) continue;
    const choices = ACCESS_CHOICES[key] as readonly string[];
    if (typeof v === 'string' && choices.includes(v)) (access as Record<string, string>)[key] = v;
    else
      errors.push({ field: `access.${key}`, messages: [`Must be one of: ${choices.join(', ')}.`] });
  }
  return access;
}

function readFlag(
  value: unknown,
  field: string,
  errors: ErrorItem[],
): { enabled: boolean } | undefined {
  if (value === undefined || value === null) return undefined;
  if (isObject(value) && typeof value.enabled === 'boolean') return { enabled: value.enabled };
  errors.push({ field: `${field}.enabled`, messages: ['Not a valid boolean.'] });
  return undefined;
}

/**
 * A create or update body as the community schema loads it: every problem is collected and the
 * whole write is refused (400), unlike drafts, which save partially. Unknown keys are dropped.
 */
export function readCommunityBody(body: unknown, errors: ErrorItem[]): CommunityData {
  const source = isObject(body) ? body : {};
  if (body !== undefined && body !== null && !isObject(body))
    errors.push({ field: '_schema', messages: ['Invalid input type.'] });
  const data: CommunityData = {
    metadata: readMetadata(source.metadata, errors),
    access: readAccess(source.access, errors),
    custom_fields: isObject(source.custom_fields) ? source.custom_fields : {},
    children: { allow: isObject(source.children) && source.children.allow === true },
  };
  const theme = readFlag(source.theme, 'theme', errors);
  if (theme) data.theme = theme;
  const uploadForm = readFlag(source.upload_form, 'upload_form', errors);
  if (uploadForm) data.upload_form = uploadForm;
  return data;
}
