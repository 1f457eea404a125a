/**
 * What the records module's tables hold as rows: their types, the columns every read names, and
 * what a parent's JSON holds. Separate from the repository's queries because most of the module
 * (services, presenters, reviews, communities) needs the rows' shapes and none of the queries.
 */
import type { Selectable } from 'kysely';
import {
  readJson,
  type DraftsTable,
  type ParentsTable,
  type PidsTable,
  type RecordsTable,
} from '../../database/schema.js';

export type DraftRow = Selectable<DraftsTable>;
export type RecordRow = Selectable<RecordsTable>;
export type ParentRow = Selectable<ParentsTable>;
export type PidRow = Selectable<PidsTable>;

/**
 * Every typed column of `records`, named instead of `records.*`: on PostgreSQL the row also holds
 * its weighted search vectors, which no read needs and which would otherwise be read out of TOAST
 * and sent with every record a search lists.
 */
const RECORD_LIKE_COLUMNS = [
  'id',
  'parentId',
  'versionIndex',
  'data',
  'revisionId',
  'createdAt',
  'updatedAt',
  'title',
  'searchText',
  'filesSummary',
] as const;
export const RECORD_COLUMNS = [
  ...RECORD_LIKE_COLUMNS,
  'isLatest',
  'publicationDate',
  'resourceType',
  'accessRecord',
  'embargoUntil',
  'accessStatus',
  'publishedAt',
  'deletedAt',
  'tombstone',
] as const satisfies ReadonlyArray<keyof RecordsTable>;
// A column added to the table and forgotten here fails to compile.
const everyRecordColumn: Record<
  Exclude<keyof RecordsTable, (typeof RECORD_COLUMNS)[number]>,
  never
> = {};
void everyRecordColumn;
/** The same for `drafts`, whose row holds its owner's search vector on PostgreSQL: read at every save. */
export const DRAFT_COLUMNS = [
  ...RECORD_LIKE_COLUMNS,
  'expiresAt',
  'recordCreatedAt',
  'unpublishedParentId',
  'updatedBy',
] as const satisfies ReadonlyArray<keyof DraftsTable>;
const everyDraftColumn: Record<
  Exclude<keyof DraftsTable, (typeof DRAFT_COLUMNS)[number]>,
  never
> = {};
void everyDraftColumn;

/** What `parents.data` holds: the parent-level part of every version (owner, communities, concept PID). */
export interface ParentData {
  access: {
    owned_by: { user: string };
    settings: Record<string, unknown>;
    grants: unknown[];
    links: unknown[];
  };
  communities: Record<string, unknown>;
  pids: Record<string, unknown>;
  /** The community-submission request of a first-version draft, its status copied in. */
  review?: ParentReview;
}

export interface ParentReview {
  id: string;
  type: 'community-submission';
  receiver: { community: string };
  status: 'created' | 'submitted' | 'declined' | 'expired' | 'accepted' | 'cancelled';
}

/** The communities a parent names: its review's receiver, its default community, the others. */
export function communitiesNamedBy(parent: ParentRow): string[] {
  const data = readJson<ParentData>(parent.data);
  const { ids, default: first } = data.communities as { ids?: unknown; default?: unknown };
  const named: unknown[] = [
    ...(Array.isArray(ids) ? (ids as unknown[]) : []),
    first,
    data.review?.receiver.community,
  ];
  return [...new Set(named.filter((id): id is string => typeof id === 'string'))];
}
