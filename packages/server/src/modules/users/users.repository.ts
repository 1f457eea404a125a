import { sql } from 'kysely';
import type { Db } from '../../database/database.js';
import { containsPattern } from '../../lib/like.js';
import { preparedQuery } from '../../database/prepared.js';

export interface UserRow {
  id: number;
  email: string;
  name: string;
  passwordHash: string;
  isAdmin: number;
  createdAt: string;
  locale?: string | null;
  emailNotifications?: number;
}

// Every authenticated request runs one of these two: prepared once (see preparedQuery).
const sessionUserQuery = preparedQuery((db: Db, sessionId: string, now: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.userId')
    .selectAll('users')
    .where('sessions.id', '=', sessionId)
    .where('sessions.expiresAt', '>', now),
);

const tokenUserQuery = preparedQuery((db: Db, tokenHash: string) =>
  db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.userId')
    .selectAll('users')
    .select('tokens.id as tokenId')
    .where('tokens.tokenHash', '=', tokenHash),
);

/** Kysely queries for users, sessions and personal access tokens; returns rows or undefined. */
/**
 * Whether a number could be a user's id. Ids come from request bodies and paths, and PostgreSQL
 * refuses a value past its integer column outright, so such an id is simply no user.
 */
export function isUserId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;
}

export class UsersRepository {
  constructor(private readonly db: Db) {}

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /**
   * People whose name contains `word` (lower case), and whoever has exactly the address `email`,
   * by name; at most `limit`.
   */
  async search(word: string, email: string, limit: number): Promise<UserRow[]> {
    const pattern = containsPattern(word);
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) =>
        eb.or([eb('email', '=', email), sql<boolean>`lower(name) like ${pattern} escape '\\'`]),
      )
      .orderBy('name')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async findById(id: number): Promise<UserRow | undefined> {
    if (!isUserId(id)) return undefined;
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findByIds(ids: number[]): Promise<UserRow[]> {
    const valid = ids.filter(isUserId);
    if (valid.length === 0) return [];
    return this.db.selectFrom('users').selectAll().where('id', 'in', valid).execute();
  }

  async insert(user: Omit<UserRow, 'id'>): Promise<UserRow> {
    return this.db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
  }

  async updateLocale(id: number, locale: string): Promise<void> {
    await this.db.updateTable('users').set({ locale }).where('id', '=', id).execute();
  }

  async updateEmailNotifications(id: number, on: boolean): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ emailNotifications: on ? 1 : 0 })
      .where('id', '=', id)
      .execute();
  }

  async updatePassword(id: number, passwordHash: string, isAdmin?: boolean): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ passwordHash, ...(isAdmin === undefined ? {} : { isAdmin: isAdmin ? 1 : 0 }) })
      .where('id', '=', id)
      .execute();
  }

  async insertSession(session: {
    id: string;
    userId: number;
    createdAt: string;
    expiresAt: string;
  }): Promise<void> {
    await this.db.insertInto('sessions').values(session).execute();
  }

  async findSessionUser(sessionId: string, now: string): Promise<UserRow | undefined> {
    return (await sessionUserQuery(this.db, sessionId, now))[0];
  }

  async deleteSession(sessionId: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  }

  async deleteExpiredSessions(now: string): Promise<number> {
    const result = await this.db
      .deleteFrom('sessions')
      .where('expiresAt', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async insertToken(token: {
    userId: number;
    name: string;
    tokenHash: string;
    createdAt: string;
  }): Promise<number> {
    const row = await this.db
      .insertInto('tokens')
      .values(token)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async listTokens(
    userId: number,
  ): Promise<Array<{ id: number; name: string; createdAt: string; lastUsedAt: string | null }>> {
    return this.db
      .selectFrom('tokens')
      .select(['id', 'name', 'createdAt', 'lastUsedAt'])
      .where('userId', '=', userId)
      .orderBy('id', 'desc')
      .execute();
  }

  /** Deletes one of the user's tokens; false when the user holds no token with that id. */
  async deleteToken(userId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('tokens')
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async findTokenUser(tokenHash: string): Promise<(UserRow & { tokenId: number }) | undefined> {
    return (await tokenUserQuery(this.db, tokenHash))[0];
  }
}
