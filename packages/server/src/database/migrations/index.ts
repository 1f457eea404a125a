import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';
import { vocabularyItems } from './0003_vocabulary_items.js';
import { communitiesMigration } from './0004_communities.js';
import { requestsMigration } from './0005_requests.js';
import { recordCommunitiesMigration } from './0006_record_communities.js';
import { communitySearchMigration } from './0007_community_search.js';
import { vocabularyWordsIndex } from './0008_vocabulary_words_index.js';
import { rateLimitsMigration } from './0009_rate_limits.js';
import { fileCommitLease } from './0010_file_commit_lease.js';
import { recordAccessStatus } from './0011_record_access_status.js';
import { wellFormedFileKeys } from './0012_well_formed_file_keys.js';
import { oneUnpublishedDraftMigration } from './0013_one_unpublished_draft.js';
import { recordsSearchVector } from './0014_records_search_vector.js';
import { recordsSearchFields } from './0017_records_search_fields.js';
import { recordsSearchNarrowing } from './0018_records_search_narrowing.js';
import { recordsLatestOfParent } from './0015_records_latest_of_parent_versions.js';
import { userLocaleMigration } from './0016_user_locale_names.js';
import { draftsSearch } from './0019_drafts_search.js';
import { recordsHarvestOrder } from './0020_records_harvest_order.js';
import { recordTombstones } from './0021_record_tombstones.js';
import { recordsSitemap } from './0022_records_sitemap.js';
import { requestsInbox } from './0023_requests_inbox.js';
import { mailOutboxMigration } from './0024_mail_outbox.js';
import { communityMemberRequests } from './0025_community_member_requests.js';
import { secretLinksMigration } from './0026_secret_links.js';
import { requestsInboxCovering } from './0027_requests_inbox_covering.js';
import { recordGrantsMigration } from './0028_record_grants.js';
import { accessRequestsMigration } from './0029_access_requests.js';
import { recordFilesListing } from './0030_record_files_listing.js';
import { grantExpiryDraftSaver } from './0031_grant_expiry_draft_saver.js';

// Migrations are written once for both engines; the few differences (identity columns, jsonb,
// full-text indexes) are chosen by engine here rather than kept as two migration trees.
type AnyDb = Kysely<unknown>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const initial: Migration = {
  async up(db: AnyDb) {
    const pg = isPostgres(db);
    const json = pg ? 'jsonb' : 'text';
    const identity = pg ? 'serial' : 'integer';

    await db.schema
      .createTable('users')
      .addColumn('id', identity, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('tokens')
      .addColumn('id', identity, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('user_id', 'integer', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .execute();

    await db.schema
      .createTable('parents')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('data', json, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('parents_owner_idx').on('parents').column('owner_id').execute();

    for (const table of ['drafts', 'records'] as const) {
      let t = db.schema
        .createTable(table)
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('parent_id', 'text', (c) => c.notNull().references('parents.id'))
        .addColumn('version_index', 'integer', (c) => c.notNull())
        .addColumn('data', json, (c) => c.notNull())
        .addColumn('revision_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''));
      if (table === 'drafts') {
        t = t
          .addColumn('expires_at', 'text', (c) => c.notNull())
          .addColumn('record_created_at', 'text');
      } else {
        t = t
          .addColumn('is_latest', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('publication_date', 'text', (c) => c.notNull())
          .addColumn('resource_type', 'text', (c) => c.notNull())
          .addColumn('access_record', 'text', (c) => c.notNull())
          .addColumn('embargo_until', 'text')
          .addColumn('published_at', 'text', (c) => c.notNull())
          .addColumn('deleted_at', 'text');
      }
      await t.execute();
      await db.schema
        .createIndex(`${table}_parent_idx`)
        .on(table)
        .columns(['parent_id', 'version_index'])
        .execute();
      await db.schema.createIndex(`${table}_updated_idx`).on(table).column('updated_at').execute();
    }
    await db.schema
      .createIndex('records_latest_idx')
      .on('records')
      .columns(['is_latest', 'published_at'])
      .execute();
    await db.schema
      .createIndex('records_embargo_idx')
      .on('records')
      .column('embargo_until')
      .execute();

    await db.schema
      .createTable('pids')
      .addColumn('scheme', 'text', (c) => c.notNull())
      .addColumn('identifier', 'text', (c) => c.notNull())
      .addColumn('record_id', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('registration_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('registration_error', 'text')
      .addColumn('next_attempt_at', 'text')
      .addPrimaryKeyConstraint('pids_pk', ['scheme', 'identifier'])
      .execute();
    await db.schema.createIndex('pids_record_idx').on('pids').column('record_id').execute();
    await db.schema
      .createIndex('pids_pending_idx')
      .on('pids')
      .columns(['status', 'next_attempt_at'])
      .execute();

    await db.schema
      .createTable('vocabularies')
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('title', json, (c) => c.notNull())
      .addColumn('description', json)
      .addColumn('icon', 'text')
      .addColumn('props', json)
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo(''))
      .addPrimaryKeyConstraint('vocabularies_pk', ['type', 'id'])
      .execute();

    // Full-text search over published records: each engine's own index behind one repository.
    if (pg) {
      await sql`create index records_search_idx on records using gin (to_tsvector('simple', search_text))`.execute(
        db,
      );
    } else {
      await sql`create virtual table records_fts using fts5(id unindexed, search_text, tokenize = 'unicode61 remove_diacritics 2')`.execute(
        db,
      );
    }
  },
};

const files: Migration = {
  async up(db: AnyDb) {
    const pg = isPostgres(db);
    const json = pg ? 'jsonb' : 'text';
    const big = pg ? 'bigint' : 'integer';

    // Bytes in the store, shared by every version that lists them: a files-import or a publish
    // adds a reference, never a copy, and the bytes go when the last reference does.
    await db.schema
      .createTable('file_objects')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('store_key', 'text', (c) => c.notNull())
      .addColumn('size', big, (c) => c.notNull())
      .addColumn('checksum', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('record_files')
      .addColumn('id', 'text', (c) => c.primaryKey())
      // 'draft:<id>' or 'record:<id>': InvenioRDM's draft and record buckets.
      .addColumn('bucket', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('key_normalized', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('transfer_type', 'text', (c) => c.notNull())
      .addColumn('declared_size', big)
      .addColumn('declared_checksum', 'text')
      .addColumn('part_size', big)
      .addColumn('parts', 'integer')
      .addColumn('mimetype', 'text', (c) => c.notNull())
      .addColumn('metadata', json)
      .addColumn('object_id', 'text', (c) => c.references('file_objects.id'))
      .addColumn('upload_key', 'text')
      .addColumn('upload_id', 'text')
      // What the last complete content PUT stored, so commit knows the bytes are there.
      .addColumn('uploaded_size', big)
      .addColumn('uploaded_checksum', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('record_files_bucket_key', ['bucket', 'key_normalized'])
      .execute();
    await db.schema
      .createIndex('record_files_object_idx')
      .on('record_files')
      .column('object_id')
      .execute();
    await db.schema
      .createIndex('record_files_pending_idx')
      .on('record_files')
      .columns(['status', 'updated_at'])
      .execute();

    await db.schema
      .createTable('user_quotas')
      .addColumn('user_id', 'integer', (c) =>
        c.primaryKey().references('users.id').onDelete('cascade'),
      )
      .addColumn('max_files', 'integer')
      .addColumn('max_bytes', big)
      .execute();

    // The files section of a draft or record as its JSON shows it, rewritten with every file
    // change in the same transaction that bumps the revision: a read needs no extra query.
    for (const table of ['drafts', 'records']) {
      await db.schema.alterTable(table).addColumn('files_summary', json).execute();
    }
  },
};

/** Every migration, in order. Names sort lexically; never rename or edit a released one. */
export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_files': files,
  '0003_vocabulary_items': vocabularyItems,
  '0004_communities': communitiesMigration,
  '0005_requests': requestsMigration,
  '0006_record_communities': recordCommunitiesMigration,
  '0007_community_search': communitySearchMigration,
  '0008_vocabulary_words_index': vocabularyWordsIndex,
  '0009_rate_limits': rateLimitsMigration,
  '0010_file_commit_lease': fileCommitLease,
  '0011_record_access_status': recordAccessStatus,
  '0012_well_formed_file_keys': wellFormedFileKeys,
  '0013_one_unpublished_draft': oneUnpublishedDraftMigration,
  '0014_records_search_vector': recordsSearchVector,
  '0015_records_latest_of_parent_versions': recordsLatestOfParent,
  '0016_user_locale_names': userLocaleMigration,
  '0017_records_search_fields': recordsSearchFields,
  '0018_records_search_narrowing': recordsSearchNarrowing,
  '0019_drafts_search': draftsSearch,
  '0020_records_harvest_order': recordsHarvestOrder,
  '0021_record_tombstones': recordTombstones,
  '0022_records_sitemap': recordsSitemap,
  '0023_requests_inbox': requestsInbox,
  '0024_mail_outbox': mailOutboxMigration,
  '0025_community_member_requests': communityMemberRequests,
  '0026_secret_links': secretLinksMigration,
  '0027_requests_inbox_covering': requestsInboxCovering,
  '0028_record_grants': recordGrantsMigration,
  '0029_access_requests': accessRequestsMigration,
  '0030_record_files_listing': recordFilesListing,
  '0031_grant_expiry_draft_saver': grantExpiryDraftSaver,
};
