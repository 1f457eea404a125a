import type { ColumnType, Generated } from 'kysely';

/**
 * JSON columns are text in SQLite and jsonb in PostgreSQL: written as a JSON string, read back as a
 * string (SQLite) or an already parsed value (pg). `readJson` hides the difference.
 */
export type JsonColumn = ColumnType<unknown, string, string>;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  name: string;
  passwordHash: string;
  isAdmin: number;
  createdAt: string;
  /** The language chosen in the header; null until one is chosen. */
  locale: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: the person receives e-mail notifications (the default); 0: they turned them off. */
  emailNotifications: ColumnType<number, number | undefined, number>;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value, so a leaked database does not leak live sessions. */
  id: string;
  userId: number;
  createdAt: string;
  expiresAt: string;
}

export interface TokensTable {
  id: Generated<number>;
  userId: number;
  name: string;
  tokenHash: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface ParentsTable {
  id: string;
  ownerId: number;
  /** {communities, pids, access settings}: what all versions share. */
  data: JsonColumn;
  createdAt: string;
  updatedAt: string;
}

interface RecordLikeColumns {
  id: string;
  parentId: string;
  versionIndex: number;
  /** RecordData of @cairn/shared: metadata, custom_fields, access, files settings, pids. */
  data: JsonColumn;
  revisionId: number;
  createdAt: string;
  updatedAt: string;
  /** Denormalised for search and sorting; rewritten with `data`. */
  title: string;
  searchText: string;
  /** FilesSummary JSON (entries keyed by file name, count, total_bytes); null before any file. */
  filesSummary: JsonColumn | null;
}

export interface DraftsTable extends RecordLikeColumns {
  expiresAt: string;
  /** The record-side creation time when this draft edits a published record (grace period rule). */
  recordCreatedAt: string | null;
  /**
   * The parent's id while this draft was never published, null on the edit draft of a published
   * record: unique, so a parent never holds two unpublished drafts.
   */
  unpublishedParentId: string | null;
  /** Who saved the draft last (null: before migration 0031, or their account is gone). */
  updatedBy: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface RecordsTable extends RecordLikeColumns {
  isLatest: number;
  publicationDate: string;
  resourceType: string;
  accessRecord: string;
  /** Set while an embargo is active, so the sweep finds what to lift with an index. */
  embargoUntil: string | null;
  /** `access.status` as the record computes it (`computeAccessStatus`): the search facet. */
  accessStatus: string;
  publishedAt: string;
  deletedAt: string | null;
  /** RecordTombstone JSON while the record is deleted; null otherwise. */
  tombstone: JsonColumn | null;
}

/** One facet value of a published record (`searchDocument`): what the search filters and counts. */
export interface RecordTermsTable {
  facet: string;
  value: string;
  recordId: string;
}

export interface PidsTable {
  scheme: string;
  /** Lower-cased: DOIs are case-insensitive, so uniqueness must be too. */
  identifier: string;
  recordId: string;
  provider: string;
  /** new → reserved → registered (managed DOIs); external ones are 'registered' from the start. */
  status: string;
  registrationAttempts: number;
  registrationError: string | null;
  nextAttemptAt: string | null;
}

export interface VocabulariesTable {
  type: string;
  id: string;
  title: JsonColumn;
  description: JsonColumn | null;
  icon: string | null;
  props: JsonColumn | null;
  tags: string;
}

export interface FileObjectsTable {
  id: string;
  storeKey: string;
  size: ColumnType<number, number, number>;
  checksum: string;
  createdAt: string;
}

export interface RecordFilesTable {
  id: string;
  bucket: string;
  key: string;
  keyNormalized: string;
  /** pending → completed; 'committing' while a commit (holding the lease below) assembles the bytes. */
  status: string;
  transferType: string;
  declaredSize: number | null;
  declaredChecksum: string | null;
  partSize: number | null;
  parts: number | null;
  mimetype: string;
  metadata: JsonColumn | null;
  objectId: string | null;
  uploadKey: string | null;
  uploadId: string | null;
  uploadedSize: number | null;
  uploadedChecksum: string | null;
  /** The committing request's token while status is 'committing' (see migration 0010). */
  commitLease: string | null;
  /** When that lease runs out unless renewed: past it, the commit was abandoned. */
  commitLeaseUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface UserQuotasTable {
  userId: number;
  maxFiles: number | null;
  maxBytes: number | null;
}

export interface VocabularyItemsTable {
  pk: Generated<number>;
  type: string;
  id: string;
  data: JsonColumn;
  sortKey: string;
  searchText: string;
  extraTerms: string;
  facet: string | null;
  tags: string;
  createdAt: string;
  updatedAt: string;
  revisionId: number;
}

export interface VocabularyTermsTable {
  type: string;
  term: string;
  itemPk: number;
}

export interface CommunitiesTable {
  id: string;
  slug: string;
  /** The community body: metadata, access, theme, custom_fields, children, upload form flag. */
  data: JsonColumn;
  /** Denormalised from `data` for search and sorting; rewritten with it. */
  title: string;
  searchText: string;
  visibility: string;
  typeId: string | null;
  revisionId: number;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  logo: Buffer | null;
  logoChecksum: string | null;
}

export interface CommunityMembersTable {
  communityId: string;
  userId: number;
  role: string;
  visible: ColumnType<number, number | undefined, number>;
  revisionId: ColumnType<number, number | undefined, number>;
  createdAt: string;
  updatedAt: string;
}

/** What a community invitation or request to join would make of its person (see migration 0025). */
export interface CommunityMemberRequestsTable {
  requestId: string;
  communityId: string;
  userId: number;
  role: string;
  visible: number;
  isOpen: number;
  createdAt: string;
}

/** The communities a record (its parent, so every version) is in; mirrors `parents.data.communities.ids`. */
export interface RecordCommunitiesTable {
  communityId: string;
  parentId: string;
  createdAt: string;
}

export interface RequestsTable {
  number: Generated<number>;
  id: string;
  type: string;
  status: string;
  title: string;
  /** null: a guest's access request (its address is in `access_requests`). */
  createdBy: number | null;
  /** A guest's verified address, as their request's creator (`createdBy` is then null). */
  creatorEmail: ColumnType<string | null, string | null | undefined, string | null>;
  /** null: an access request, which its record's owner receives (`receiverUserId`). */
  receiverCommunityId: string | null;
  /** An invitation's or access request's receiver, the person invited; `receiverCommunityId` is then its community. */
  receiverUserId: ColumnType<number | null, number | null | undefined, number | null>;
  topicRecordId: string | null;
  expiresAt: string | null;
  revisionId: number;
  createdAt: string;
  updatedAt: string;
  lastActivityAt: string;
}

export interface RequestEventsTable {
  id: string;
  requestId: string;
  type: string;
  payload: JsonColumn;
  createdBy: number | null;
  revisionId: number;
  createdAt: string;
  updatedAt: string;
}

export interface RateLimitsTable {
  /** `action:kind:` and the SHA-256 of the account or address counted. */
  key: string;
  hits: number;
  /** When the window ends (ISO-8601); an ended window starts again at the next attempt. */
  resetAt: string;
}

/** One e-mail waiting to be sent (migration 0024); deleted once the SMTP server took it. */
export interface MailOutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  textBody: string;
  htmlBody: string;
  createdAt: string;
  nextAttemptAt: string;
  attempts: ColumnType<number, number | undefined, number>;
  leaseUntil: ColumnType<string | null, string | null | undefined, string | null>;
  leaseToken: ColumnType<string | null, string | null | undefined, string | null>;
  lastError: ColumnType<string | null, string | null | undefined, string | null>;
  failedAt: ColumnType<string | null, string | null | undefined, string | null>;
}

/** When a person last opened a request: what it had seen of its activity (the inbox's unread). */
export interface RequestReadsTable {
  requestId: string;
  userId: number;
  /** The request's `last_activity_at` as it was when the person last opened it. */
  seenAt: string;
}

/** A secret link of a record's parent (migration 0026). */
export interface SecretLinksTable {
  id: string;
  parentId: string;
  token: string;
  /** SHA-256 of the token: what `?token=` is looked up by. */
  tokenHash: string;
  permission: string;
  description: ColumnType<string, string | undefined, string>;
  createdAt: string;
  /** `YYYY-MM-DD`: the link works until this day begins (UTC); null: for ever. */
  expiresAt: string | null;
}

/** A person's grant on a record's parent (all its versions); one per parent and person. */
export interface RecordGrantsTable {
  id: string;
  parentId: string;
  userId: number;
  /** `view`, `preview`, `edit` or `manage`. */
  permission: string;
  /** Who made it, InvenioRDM's `origin` (`api:<user id>`). */
  origin: string | null;
  /** Its place among the parent's grants, in the order they were given (ascending, with gaps). */
  position: number;
  createdAt: string;
  /** `YYYY-MM-DD`: the grant works until this day begins (UTC); null: for ever. */
  expiresAt: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  tokens: TokensTable;
  parents: ParentsTable;
  drafts: DraftsTable;
  records: RecordsTable;
  recordTerms: RecordTermsTable;
  pids: PidsTable;
  vocabularies: VocabulariesTable;
  fileObjects: FileObjectsTable;
  recordFiles: RecordFilesTable;
  userQuotas: UserQuotasTable;
  vocabularyItems: VocabularyItemsTable;
  vocabularyTerms: VocabularyTermsTable;
  communities: CommunitiesTable;
  communityMembers: CommunityMembersTable;
  communityMemberRequests: CommunityMemberRequestsTable;
  requests: RequestsTable;
  requestEvents: RequestEventsTable;
  requestReads: RequestReadsTable;
  recordCommunities: RecordCommunitiesTable;
  rateLimits: RateLimitsTable;
  mailOutbox: MailOutboxTable;
  secretLinks: SecretLinksTable;
  recordGrants: RecordGrantsTable;
  accessRequests: AccessRequestsTable;
  accessRequestTokens: AccessRequestTokensTable;
}

/** Who asked for access to a record (a signed-in person or a guest's verified address). */
export interface AccessRequestsTable {
  requestId: string;
  parentId: string;
  /** The record asked about (the version the reader saw). */
  recordId: string;
  userId: number | null;
  email: string | null;
  fullName: string;
  locale: string | null;
  isOpen: number;
  createdAt: string;
}

/** A guest's access request until they confirm their address (only the token's hash is kept). */
export interface AccessRequestTokensTable {
  tokenHash: string;
  recordId: string;
  email: string;
  fullName: string;
  message: string;
  locale: string | null;
  createdAt: string;
  expiresAt: string;
}

/** A JSON column's value as the text both engines accept on write (null stays null). */
export function jsonText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Parses a JSON column whatever the engine returned. */
export function readJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
