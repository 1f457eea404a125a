import { sql, type Kysely } from 'kysely';
import type { RecordData } from '@cairn/shared';
import { bulkInsert, type BulkColumn } from '../../database/bulk.js';
import type { Db, Engine } from '../../database/database.js';
import { jsonText } from '../../database/schema.js';
import type { FilesSummary } from '../files/files.summary.js';
import type { ParentData } from './records.rows.js';
import { publishedColumns } from './records.shared.js';
import { searchDocument } from './search/document.js';
import { searchVectorOfTexts, searchVectorTexts } from './search/index-writer.js';

/** A first version to load as published, with the parent it starts. */
export interface BulkRecord {
  id: string;
  parentId: string;
  ownerId: number;
  /** What a publish stores: the draft's data once validated. */
  data: RecordData;
  parentData: ParentData;
  /** Its files as a publish summarises them; the bytes are not stored. */
  filesSummary: FilesSummary | null;
  /** ISO date-time of the publish, also its creation. */
  publishedAt: string;
}

const text = (name: string): BulkColumn => ({ name, pg: 'text' });
const int = (name: string): BulkColumn => ({ name, pg: 'integer' });
const json = (name: string): BulkColumn => ({ name, pg: 'jsonb' });

const PARENT_COLUMNS = [
  text('id'),
  int('owner_id'),
  json('data'),
  text('created_at'),
  text('updated_at'),
];
const RECORD_COLUMNS = [
  text('id'),
  text('parent_id'),
  int('version_index'),
  json('data'),
  int('revision_id'),
  text('created_at'),
  text('updated_at'),
  text('title'),
  text('search_text'),
  json('files_summary'),
  int('is_latest'),
  text('publication_date'),
  text('resource_type'),
  text('access_record'),
  text('embargo_until'),
  text('access_status'),
  text('published_at'),
];
// PostgreSQL computes the weighted vector from the four texts in the statement that inserts the
// row, as a publish does.
const PG_RECORD_COLUMNS = [
  ...RECORD_COLUMNS,
  { name: 'search_vector', pg: 'jsonb', pgSelect: searchVectorOfTexts } satisfies BulkColumn,
];
const FTS_COLUMNS = [
  int('rowid'),
  text('title'),
  text('creators'),
  text('description'),
  text('rest'),
];
const TERM_COLUMNS = [text('facet'), text('value'), text('record_id')];
const COMMUNITY_COLUMNS = [text('community_id'), text('parent_id'), text('created_at')];
const PID_COLUMNS = [
  text('scheme'),
  text('identifier'),
  text('record_id'),
  text('provider'),
  text('status'),
];

/**
 * Loads many published records at once, each a first version with its parent, its search index
 * (SQLite's FTS5 row or PostgreSQL's weighted vector, the facet terms), its communities and its
 * DOI, in few statements (`bulkInsert`): what publishing them one by one would leave, at a
 * fraction of the cost. The rows are computed by the code a publish runs (`publishedColumns`,
 * `searchDocument`), so a search finds them as it finds published ones. The communities must
 * exist. The files' bytes are not stored: a record's file entries can be listed, not downloaded.
 */
export class RecordsBulkRepository {
  constructor(
    private readonly db: Db,
    readonly engine: Engine,
  ) {}

  /** Inserts `records` in one transaction. */
  async insertPublished(records: readonly BulkRecord[]): Promise<void> {
    const pg = this.engine === 'postgres';
    const parents: unknown[][] = [];
    const rows: unknown[][] = [];
    const texts = new Map<string, unknown[]>();
    const terms: unknown[][] = [];
    const communities: unknown[][] = [];
    const pids: unknown[][] = [];
    for (const r of records) {
      const data = JSON.stringify(r.data);
      const filesSummary = jsonText(r.filesSummary);
      // From the objects: parsing the JSON just written would cost as much as the indexing.
      const doc = searchDocument({ id: r.id, data: r.data, filesSummary: r.filesSummary });
      parents.push([
        r.parentId,
        r.ownerId,
        JSON.stringify(r.parentData),
        r.publishedAt,
        r.publishedAt,
      ]);
      const c = publishedColumns(r.data, r.id);
      const row: unknown[] = [
        r.id,
        r.parentId,
        1,
        data,
        2,
        r.publishedAt,
        r.publishedAt,
        c.title,
        c.searchText,
        filesSummary,
        1,
        c.publicationDate,
        c.resourceType,
        c.accessRecord,
        c.embargoUntil,
        c.accessStatus,
        r.publishedAt,
      ];
      if (pg) row.push(searchVectorTexts(doc));
      else texts.set(r.id, [doc.title, doc.creators, doc.description, doc.rest]);
      rows.push(row);
      for (const t of doc.terms) terms.push([t.facet, t.value, r.id]);
      const ids = r.parentData.communities.ids;
      for (const id of Array.isArray(ids) ? new Set(ids as string[]) : [])
        communities.push([id, r.parentId, r.publishedAt]);
      const doi = r.data.pids.doi;
      if (doi) pids.push(['doi', doi.identifier.toLowerCase(), r.id, doi.provider, 'registered']);
    }
    await this.db.transaction().execute(async (trx) => {
      const x = trx as unknown as Kysely<unknown>;
      await bulkInsert(x, this.engine, 'parents', PARENT_COLUMNS, parents);
      const inserted = await bulkInsert<{ rowid: number; id: string }>(
        x,
        this.engine,
        'records',
        pg ? PG_RECORD_COLUMNS : RECORD_COLUMNS,
        rows,
        pg ? [] : ['rowid', 'id'],
      );
      if (!pg) {
        // FTS5's rows are keyed by the record's rowid, which SQLite has just chosen.
        const fts = inserted.map((r) => [r.rowid, ...texts.get(r.id)!]);
        await bulkInsert(x, this.engine, 'records_search', FTS_COLUMNS, fts);
      }
      await bulkInsert(x, this.engine, 'record_terms', TERM_COLUMNS, terms);
      await bulkInsert(x, this.engine, 'record_communities', COMMUNITY_COLUMNS, communities);
      await bulkInsert(x, this.engine, 'pids', PID_COLUMNS, pids);
    });
  }

  /**
   * PostgreSQL plans by statistics that autovacuum refreshes minutes later, if at all: after a
   * load they would describe the tables as they were before it.
   */
  async refreshStatistics(): Promise<void> {
    if (this.engine === 'postgres')
      await sql`analyze parents, records, record_terms, record_communities, pids`.execute(this.db);
  }
}
