import crypto from 'node:crypto';
import { GrantsBody, GrantUpdateBody, type GrantJson, type GrantPermission } from '@cairn/shared';
import { AppError, validationFailed } from '../../errors.js';
import { isUniqueViolation } from '../../database/errors.js';
import { nowIso } from '../../database/database.js';
import { parsedBody } from '../../lib/zod-errors.js';
import type { ParentRow } from '../records/records.rows.js';
import { presentUserStub } from '../requests/requests.presenter.js';
import type { RecordStore } from '../records/records.shared.js';
import { isUserId } from '../users/users.repository.js';
import type { User } from '../users/users.service.js';
import type { GrantNotifications, NotifiedGrant } from '../mail/grant-notifications.js';
import { grantExpired, type GrantRow, type GrantsRepository } from './grants.repository.js';

const NOT_FOUND = 'No grant found with the given ID.';
const EXISTS = 'Grant for this user/role already exists within this record.';
const NO_SUBJECT = 'Could not find the specified subject.';
const OWNER = "The record's owner already has every permission on it.";
const SELF = 'You cannot grant yourself access.';

type GrantHits = { hits: { hits: GrantJson[]; total: number } };
type Subject = NonNullable<GrantJson['expanded']>['subject'];

/** Whom grants are looked up for: users by id (the users module). */
export interface GrantSubjects {
  findById(id: number): Promise<User | undefined>;
  findByIds(ids: number[]): Promise<Map<number, User>>;
}

function present(row: GrantRow): GrantJson {
  return {
    subject: { type: 'user', id: String(row.userId) },
    permission: row.permission as GrantPermission,
    origin: row.origin,
    ...(row.expiresAt !== null ? { expires_at: row.expiresAt } : {}),
  };
}

function hits(rows: GrantRow[]): GrantHits {
  return { hits: { hits: rows.map(present), total: rows.length } };
}

/** The contract's 400 for a grant's subject. */
function badSubject(message: string): AppError {
  return validationFailed([{ field: 'grants.subject.id', messages: [message] }]);
}

/** A user id as InvenioRDM's subjects carry it (a string of digits), or undefined. */
function userIdOf(id: string): number | undefined {
  return /^[1-9][0-9]{0,15}$/.test(id) && isUserId(Number(id)) ? Number(id) : undefined;
}

/**
 * InvenioRDM's grants of a record to people: given, read, changed and revoked by whoever manages
 * the record (its owner, administrators, `manage` grantees), shared by all its versions, and
 * read by the records module (through the repository) as the second source of permission beside
 * a link.
 */
export class GrantsService {
  constructor(
    private readonly repo: GrantsRepository,
    private readonly store: RecordStore,
    private readonly users: GrantSubjects,
    private readonly notifications?: GrantNotifications,
  ) {}

  /**
   * POST …/access/grants: every grant is checked before any is written, under the parent's lock,
   * so a refused one leaves the others ungiven and two parallel grants to one person give one.
   * Each grant with `notify` (its own, else the body's) e-mails its person, with the `message`
   * (likewise), in the same transaction.
   */
  async create(user: User | undefined, id: string, body: unknown): Promise<GrantHits> {
    const input = parsedBody(GrantsBody, body);
    return this.store.changingManaged(user, id, async (parent, caller) => {
      const existing = await this.repo.ofParent(parent.id);
      const taken = new Set(existing.map((g) => g.userId));
      let position = existing.reduce((max, g) => Math.max(max, g.position), 0);
      const createdAt = nowIso();
      const rows: GrantRow[] = [];
      const notified: NotifiedGrant[] = [];
      for (const grant of input.grants) {
        const userId = userIdOf(grant.subject.id);
        if (userId !== undefined && taken.has(userId))
          throw new AppError('VALIDATION_FAILED', EXISTS);
        if (userId === undefined || !(await this.users.findById(userId)))
          throw badSubject(NO_SUBJECT);
        if (userId === parent.ownerId) throw badSubject(OWNER);
        if (userId === caller.id) throw badSubject(SELF);
        taken.add(userId);
        if (grant.notify ?? input.notify ?? false) {
          const message = grant.message ?? input.message;
          notified.push({
            userId,
            permission: grant.permission,
            ...(message ? { message } : {}),
          });
        }
        rows.push({
          id: crypto.randomUUID(),
          parentId: parent.id,
          userId,
          permission: grant.permission,
          // Who gave it, as InvenioRDM records it; a client's own `origin` is not taken.
          origin: `api:${caller.id}`,
          position: (position += 1),
          createdAt,
          expiresAt: null,
        });
      }
      try {
        await this.repo.insert(rows);
      } catch (error) {
        // The lock makes this rare; the key still has the last word.
        if (isUniqueViolation(error)) throw new AppError('VALIDATION_FAILED', EXISTS);
        throw error;
      }
      if (notified.length > 0 && this.notifications)
        await this.notifications.granted(await this.recordOf(id), caller, notified);
      return hits(rows);
    });
  }

  /**
   * Gives `userId` a grant of `permission` on `parent` unless they hold one already (which is
   * kept as it is), for a caller holding the parent's lock that was allowed to: an accepted
   * access request. `origin` says where it came from, as InvenioRDM's `request:<id>`;
   * `expiresAt` the day it stops working (null: never). A grant that ran out is given anew.
   */
  async giveUnlessHeld(
    parent: ParentRow,
    userId: number,
    permission: GrantPermission,
    origin: string,
    expiresAt: string | null = null,
  ): Promise<void> {
    if (userId === parent.ownerId) return;
    const held = await this.repo.ofUser(parent.id, userId);
    if (held && grantExpired(held))
      return this.repo.renew(held.id, { permission, origin, expiresAt });
    if (held) return;
    const existing = await this.repo.ofParent(parent.id);
    await this.repo.insert([
      {
        id: crypto.randomUUID(),
        parentId: parent.id,
        userId,
        permission,
        origin,
        position: existing.reduce((max, g) => Math.max(max, g.position), 0) + 1,
        createdAt: nowIso(),
        expiresAt,
      },
    ]);
  }

  /** The record or draft `id` names (the sharer's address), for a grantee's message. */
  private async recordOf(id: string) {
    const record = await this.store.repo.getRecord(id);
    const row = record ?? (await this.store.repo.getDraft(id));
    return { id, title: row?.title ?? '', published: record !== undefined };
  }

  /** The parent's grants; with `expand`, each names its person (`expanded.subject`). */
  async list(user: User | undefined, id: string, expand = false): Promise<GrantHits> {
    const parent = await this.store.managedParent(user, id);
    const rows = await this.repo.ofParent(parent.id);
    const result = hits(rows);
    if (!expand) return result;
    const people = await this.users.findByIds(rows.map((r) => r.userId));
    result.hits.hits = result.hits.hits.map((grant, i) => ({
      ...grant,
      expanded: {
        subject: presentUserStub(rows[i]!.userId, people.get(rows[i]!.userId)) as Subject,
      },
    }));
    return result;
  }

  /** The grant at `index` of the parent's list (InvenioRDM's grant id), else 404. */
  private async atIndex(parent: ParentRow, index: string): Promise<GrantRow> {
    const rows = await this.repo.ofParent(parent.id);
    const row = /^(0|[1-9][0-9]{0,8})$/.test(index) ? rows[Number(index)] : undefined;
    if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
    return row;
  }

  /** The grant to user `userId` (as the address gives it), else 404. */
  private async ofUser(parent: ParentRow, userId: string): Promise<GrantRow> {
    const id = userIdOf(userId);
    const row = id === undefined ? undefined : await this.repo.ofUser(parent.id, id);
    if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
    return row;
  }

  async read(user: User | undefined, id: string, index: string): Promise<GrantJson> {
    return present(await this.atIndex(await this.store.managedParent(user, id), index));
  }

  async delete(user: User | undefined, id: string, index: string): Promise<void> {
    await this.store.changingManaged(user, id, async (parent) => {
      const row = await this.atIndex(parent, index);
      if (!(await this.repo.delete(row.id))) throw new AppError('NOT_FOUND', NOT_FOUND);
    });
  }

  async readUser(user: User | undefined, id: string, userId: string): Promise<GrantJson> {
    return present(await this.ofUser(await this.store.managedParent(user, id), userId));
  }

  async updateUser(
    user: User | undefined,
    id: string,
    userId: string,
    body: unknown,
  ): Promise<GrantJson> {
    const input = parsedBody(GrantUpdateBody, body);
    return this.store.changingManaged(user, id, async (parent) => {
      const row = await this.ofUser(parent, userId);
      await this.repo.setPermission(row.id, input.permission);
      return present({ ...row, permission: input.permission });
    });
  }

  async deleteUser(user: User | undefined, id: string, userId: string): Promise<void> {
    await this.store.changingManaged(user, id, async (parent) => {
      const row = await this.ofUser(parent, userId);
      if (!(await this.repo.delete(row.id))) throw new AppError('NOT_FOUND', NOT_FOUND);
    });
  }
}
