import { hash, verify } from '@node-rs/argon2';
import crypto from 'node:crypto';
import type { ErrorItem } from '@cairn/shared';
import { AppError } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import type { UserRow, UsersRepository } from './users.repository.js';

/** The caller of a request as the rest of the server sees it. */
export interface User {
  id: number;
  email: string;
  name: string;
  isAdmin: boolean;
  /** The language the person chose in the header, if they did. */
  locale?: string;
  /** False when the person turned e-mail notifications off (they are on by default). */
  emailNotifications?: boolean;
}

export const MIN_PASSWORD_LENGTH = 8;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    isAdmin: row.isAdmin === 1,
    emailNotifications: row.emailNotifications !== 0,
    ...(row.locale ? { locale: row.locale } : {}),
  };
}

/** Opaque secrets are stored as their SHA-256 only: enough for high-entropy random tokens. */
export function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('hex');
}

function newSecret(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/** Accounts, sessions and personal access tokens. */
export class UsersService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly sessionDays: number,
  ) {}

  /**
   * Creates an account. Throws VALIDATION_FAILED with every field problem, EMAIL_TAKEN when the
   * address is registered already.
   */
  async createUser(input: {
    email: unknown;
    password: unknown;
    name?: unknown;
    isAdmin?: boolean;
  }): Promise<User> {
    const errors: ErrorItem[] = [];
    const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
    if (!EMAIL.test(email))
      errors.push({ field: 'email', messages: ['Not a valid email address.'] });
    const password = typeof input.password === 'string' ? input.password : '';
    if (password.length < MIN_PASSWORD_LENGTH) {
      errors.push({
        field: 'password',
        messages: [`Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`],
      });
    }
    if (input.name !== undefined && input.name !== null && typeof input.name !== 'string') {
      errors.push({ field: 'name', messages: ['Not a valid string.'] });
    }
    const name =
      typeof input.name === 'string' && input.name.trim()
        ? input.name.trim()
        : (email.split('@')[0] ?? email);
    if (name.length > 255)
      errors.push({ field: 'name', messages: ['Longer than maximum length 255.'] });
    if (errors.length > 0) throw new AppError('VALIDATION_FAILED', undefined, errors);
    if (await this.repo.findByEmail(email)) throw new AppError('EMAIL_TAKEN');
    try {
      const row = await this.repo.insert({
        email,
        name,
        passwordHash: await hash(password),
        isAdmin: input.isAdmin ? 1 : 0,
        createdAt: nowIso(),
      });
      return toUser(row);
    } catch (error) {
      // Two sign-ups racing for one address: the unique index decides.
      if (await this.repo.findByEmail(email)) throw new AppError('EMAIL_TAKEN');
      throw error;
    }
  }

  /** Sets a new password (and optionally the admin flag) for an existing account. */
  async resetPassword(email: string, password: string, isAdmin?: boolean): Promise<User> {
    const row = await this.repo.findByEmail(email.trim().toLowerCase());
    if (!row) throw new AppError('NOT_FOUND', `No account for ${email}.`);
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw new AppError('VALIDATION_FAILED', undefined, [
        {
          field: 'password',
          messages: [`Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`],
        },
      ]);
    }
    await this.repo.updatePassword(row.id, await hash(password), isAdmin);
    return toUser({ ...row, isAdmin: isAdmin === undefined ? row.isAdmin : isAdmin ? 1 : 0 });
  }

  async findById(id: number): Promise<User | undefined> {
    const row = await this.repo.findById(id);
    return row && toUser(row);
  }

  /**
   * Whom a signed-in person can find to invite or share with: by part of their name (two
   * characters at least, so the list of everyone cannot be walked letter by letter too cheaply),
   * or by their whole e-mail address, which only someone who knows it can type.
   */
  async search(query: string, limit: number): Promise<User[]> {
    const q = query.trim().toLowerCase();
    if (q.length < 2) return [];
    const rows = await this.repo.search(q, q, limit);
    return rows.map(toUser);
  }

  /** The users of `ids` that exist, by id: one statement for a page's people. */
  async findByIds(ids: number[]): Promise<Map<number, User>> {
    const rows = await this.repo.findByIds([...new Set(ids)]);
    return new Map(rows.map((row) => [row.id, toUser(row)]));
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.repo.findByEmail(email.trim().toLowerCase());
  }

  /** Checks a password; throws INVALID_CREDENTIALS without saying which half was wrong. */
  async authenticate(email: unknown, password: unknown): Promise<User> {
    if (typeof email !== 'string' || typeof password !== 'string')
      throw new AppError('INVALID_CREDENTIALS');
    const row = await this.repo.findByEmail(email.trim().toLowerCase());
    if (!row || !(await verify(row.passwordHash, password)))
      throw new AppError('INVALID_CREDENTIALS');
    return toUser(row);
  }

  /** Opens a session; returns the cookie value (only its hash is stored). */
  async createSession(userId: number): Promise<{ token: string; expiresAt: Date }> {
    const token = newSecret();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.sessionDays * 86_400_000);
    await this.repo.insertSession({
      id: hashSecret(token),
      userId,
      createdAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
    return { token, expiresAt };
  }

  async userForSession(token: string): Promise<User | undefined> {
    const row = await this.repo.findSessionUser(hashSecret(token), nowIso());
    return row && toUser(row);
  }

  async endSession(token: string): Promise<void> {
    await this.repo.deleteSession(hashSecret(token));
  }

  /** Creates a personal access token; the returned secret is shown once and never stored. */
  async createToken(
    userId: number,
    name: string,
  ): Promise<{ id: number; token: string; name: string; createdAt: string }> {
    const token = `cairn_${newSecret()}`;
    const createdAt = nowIso();
    const id = await this.repo.insertToken({
      userId,
      name: name || 'token',
      tokenHash: hashSecret(token),
      createdAt,
    });
    return { id, token, name: name || 'token', createdAt };
  }

  /** The user's personal access tokens, newest first; never their secrets (only hashes are kept). */
  listTokens(userId: number) {
    return this.repo.listTokens(userId);
  }

  /**
   * Keeps the language a person chose (one the site offers: the route's schema checks it), so
   * that it follows them to every browser they sign in from.
   */
  async setLocale(userId: number, locale: string): Promise<void> {
    await this.repo.updateLocale(userId, locale);
  }

  async setEmailNotifications(userId: number, on: boolean): Promise<void> {
    await this.repo.updateEmailNotifications(userId, on);
  }

  /** Revokes one of the user's tokens at once; 404 for an id that is not one of theirs. */
  async revokeToken(userId: number, id: string): Promise<void> {
    const numeric = /^\d{1,15}$/.test(id) ? Number(id) : undefined;
    if (numeric === undefined || !(await this.repo.deleteToken(userId, numeric)))
      throw new AppError('NOT_FOUND');
  }

  async userForToken(token: string): Promise<User | undefined> {
    const row = await this.repo.findTokenUser(hashSecret(token));
    return row && toUser(row);
  }

  sweepSessions(): Promise<number> {
    return this.repo.deleteExpiredSessions(nowIso());
  }
}
