import crypto from 'node:crypto';
import {
  SecretLinkBody,
  SecretLinkUpdateBody,
  type SecretLinkJson,
  type SecretLinkPermission,
} from '@cairn/shared';
import { AppError, validationFailed } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import { parsedBody } from '../../lib/zod-errors.js';
import { constantTimeEqual } from '../../plugins/auth.js';
import { invenioTime } from '../records/records.presenter.js';
import type { ParentRow } from '../records/records.rows.js';
import { today, type LinkGrant, type RecordStore } from '../records/records.shared.js';
import { hashSecret } from '../users/users.service.js';
import type { User } from '../users/users.service.js';
import type { SecretLinkRow, SecretLinksRepository } from './secret-links.repository.js';

const NOT_FOUND = 'No secret link found with the given ID.';
const FUTURE = 'Expiration date must be set to the future';
const POSTPONED = 'Cannot postpone expiration of links';

/** The contract's 400 for one field. */
function refused(field: string, message: string): AppError {
  return validationFailed([{ field, messages: [message] }]);
}

function present(row: SecretLinkRow): SecretLinkJson {
  return {
    id: row.id,
    token: row.token,
    permission: row.permission as SecretLinkPermission,
    created_at: invenioTime(row.createdAt),
    expires_at: row.expiresAt,
    description: row.description,
  };
}

/** Whether the link still works: until its expiry day begins (UTC), as InvenioRDM's do. */
function live(row: SecretLinkRow): boolean {
  return row.expiresAt === null || row.expiresAt > today();
}

/**
 * InvenioRDM's secret links of a record: made, read, changed and revoked by whoever manages the
 * record (its owner, administrators, `manage` grantees), shared by all its versions, and resolved from a request's
 * token into what they grant.
 */
export class SecretLinksService {
  constructor(
    private readonly repo: SecretLinksRepository,
    private readonly store: RecordStore,
  ) {}

  private async link(parent: ParentRow, linkId: string): Promise<SecretLinkRow> {
    const row = await this.repo.find(parent.id, linkId);
    if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
    return row;
  }

  async create(user: User | undefined, id: string, body: unknown): Promise<SecretLinkJson> {
    const input = parsedBody(SecretLinkBody, body);
    if (input.expires_at && input.expires_at <= today()) throw refused('expires_at', FUTURE);
    if (input.permission === undefined)
      throw refused('permission', 'An access permission level is required');
    const permission = input.permission;
    return this.store.changingManaged(user, id, (parent) =>
      this.createFor(parent, {
        permission,
        description: input.description ?? '',
        expiresAt: input.expires_at ?? null,
      }),
    );
  }

  /**
   * A new link to `parent`, for a caller already allowed to make one and holding the parent's
   * lock (the owner through `create`, or an accepted access request of a guest).
   */
  async createFor(
    parent: ParentRow,
    link: { permission: SecretLinkPermission; description: string; expiresAt: string | null },
  ): Promise<SecretLinkJson> {
    const token = crypto.randomBytes(32).toString('base64url');
    const row: SecretLinkRow = {
      id: crypto.randomUUID(),
      parentId: parent.id,
      token,
      tokenHash: hashSecret(token),
      permission: link.permission,
      description: link.description,
      createdAt: nowIso(),
      expiresAt: link.expiresAt,
    };
    await this.repo.insert(row);
    return present(row);
  }

  async list(
    user: User | undefined,
    id: string,
  ): Promise<{ hits: { hits: SecretLinkJson[]; total: number } }> {
    const parent = await this.store.managedParent(user, id);
    const rows = await this.repo.ofParent(parent.id);
    return { hits: { hits: rows.map(present), total: rows.length } };
  }

  async read(user: User | undefined, id: string, linkId: string): Promise<SecretLinkJson> {
    return present(await this.link(await this.store.managedParent(user, id), linkId));
  }

  /**
   * PATCH: a new permission or description, or an earlier expiry. A later one, or removing it
   * (`null`), would lengthen the life of a token already handed out: 400, as InvenioRDM.
   */
  async update(
    user: User | undefined,
    id: string,
    linkId: string,
    body: unknown,
  ): Promise<SecretLinkJson> {
    const input = parsedBody(SecretLinkUpdateBody, body);
    return this.store.changingManaged(user, id, async (parent) => {
      const row = await this.link(parent, linkId);
      let expiresAt = row.expiresAt;
      if (input.expires_at === null) {
        if (row.expiresAt !== null) throw refused('expires_at', POSTPONED);
      } else if (input.expires_at !== undefined) {
        if (row.expiresAt !== null && input.expires_at > row.expiresAt)
          throw refused('expires_at', POSTPONED);
        if (input.expires_at <= today()) throw refused('expires_at', FUTURE);
        expiresAt = input.expires_at;
      }
      const change = {
        permission: input.permission ?? row.permission,
        expiresAt,
        description: input.description ?? row.description,
      };
      await this.repo.update(row.id, change);
      return present({ ...row, ...change });
    });
  }

  async delete(user: User | undefined, id: string, linkId: string): Promise<void> {
    await this.store.changingManaged(user, id, async (parent) => {
      const row = await this.link(parent, linkId);
      if (!(await this.repo.delete(row.id))) throw new AppError('NOT_FOUND', NOT_FOUND);
    });
  }

  /**
   * What a token grants: looked up by its hash, then compared in constant time with the link's
   * own, so neither the lookup nor the comparison tells how much of a guess was right.
   */
  async resolve(token: string): Promise<LinkGrant | undefined> {
    if (token.length > 200) return undefined;
    const row = await this.repo.byTokenHash(hashSecret(token));
    if (!row || !constantTimeEqual(row.token, token) || !live(row)) return undefined;
    return {
      id: row.id,
      parentId: row.parentId,
      permission: row.permission as SecretLinkPermission,
    };
  }
}
