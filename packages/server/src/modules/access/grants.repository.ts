import type { GrantPermission } from '@cairn/shared';
import type { Selectable } from 'kysely';
import type { Db } from '../../database/database.js';
import { preparedQuery } from '../../database/prepared.js';
import type { RecordGrantsTable } from '../../database/schema.js';
import { today, type GrantLookup } from '../records/records.shared.js';

export type GrantRow = Selectable<RecordGrantsTable>;

// Every read of a restricted record by someone other than its owner runs this one: prepared
// once (see preparedQuery). The user id goes in as text: both engines compare it with the
// integer column as a number.
const permissionQuery = preparedQuery((db: Db, parentId: string, userId: string) =>
  db
    .selectFrom('recordGrants')
    .select(['permission', 'expiresAt'])
    .where('parentId', '=', parentId)
    .where('userId', '=', userId as unknown as number),
);

/** Whether a grant's day has begun (UTC), as a secret link's: from then on it gives nothing. */
export function grantExpired(row: { expiresAt: string | null }, day = today()): boolean {
  return row.expiresAt !== null && row.expiresAt <= day;
}

/** Kysely queries for the grants of record parents to people; rows or undefined. */
export class GrantsRepository implements GrantLookup {
  constructor(private readonly db: Db) {}

  async insert(rows: GrantRow[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('recordGrants').values(rows).execute();
  }

  /** The parent's grants in the order they were given: a grant's index is its place here. */
  ofParent(parentId: string): Promise<GrantRow[]> {
    return this.db
      .selectFrom('recordGrants')
      .selectAll()
      .where('parentId', '=', parentId)
      .orderBy('position')
      .execute();
  }

  ofUser(parentId: string, userId: number): Promise<GrantRow | undefined> {
    return this.db
      .selectFrom('recordGrants')
      .selectAll()
      .where('parentId', '=', parentId)
      .where('userId', '=', userId)
      .executeTakeFirst();
  }

  /**
   * The records module's GrantLookup: the permission a person holds on a parent, if any. An
   * expired grant gives nothing (it is judged here, not in the prepared statement, whose shape
   * then stays one for every day).
   */
  async grantOf(parentId: string, userId: number): Promise<GrantPermission | undefined> {
    const row = (await permissionQuery(this.db, parentId, String(userId)))[0];
    return row && !grantExpired(row) ? (row.permission as GrantPermission) : undefined;
  }

  /** Renews a grant that had run out: what accepting a new access request gives. */
  async renew(
    id: string,
    set: { permission: string; origin: string; expiresAt: string | null },
  ): Promise<void> {
    await this.db.updateTable('recordGrants').set(set).where('id', '=', id).execute();
  }

  async setPermission(id: string, permission: string): Promise<void> {
    await this.db.updateTable('recordGrants').set({ permission }).where('id', '=', id).execute();
  }

  /** Whether a row went: of two parallel deletions only one finds it. */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('recordGrants').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
