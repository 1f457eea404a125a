import type { Selectable } from 'kysely';
import type { Db } from '../../database/database.js';
import { preparedQuery } from '../../database/prepared.js';
import type { SecretLinksTable } from '../../database/schema.js';

export type SecretLinkRow = Selectable<SecretLinksTable>;

// Every request that carries a link token runs this one: prepared once (see preparedQuery).
const byTokenHashQuery = preparedQuery((db: Db, tokenHash: string) =>
  db.selectFrom('secretLinks').selectAll().where('tokenHash', '=', tokenHash),
);

/** Kysely queries for the secret links of record parents; rows or undefined. */
export class SecretLinksRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SecretLinkRow): Promise<void> {
    await this.db.insertInto('secretLinks').values(row).execute();
  }

  ofParent(parentId: string): Promise<SecretLinkRow[]> {
    return this.db
      .selectFrom('secretLinks')
      .selectAll()
      .where('parentId', '=', parentId)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
  }

  /** The link `id` of `parentId`: a link of another parent is no link of this one. */
  find(parentId: string, id: string): Promise<SecretLinkRow | undefined> {
    return this.db
      .selectFrom('secretLinks')
      .selectAll()
      .where('parentId', '=', parentId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async byTokenHash(tokenHash: string): Promise<SecretLinkRow | undefined> {
    return (await byTokenHashQuery(this.db, tokenHash))[0];
  }

  async update(
    id: string,
    change: Pick<SecretLinkRow, 'permission' | 'expiresAt' | 'description'>,
  ): Promise<void> {
    await this.db.updateTable('secretLinks').set(change).where('id', '=', id).execute();
  }

  /** Whether a row went: of two parallel deletions only one finds it. */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('secretLinks').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
