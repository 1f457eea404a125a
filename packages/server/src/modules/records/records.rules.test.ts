import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import type { AppError } from '../../errors.js';
import type { FilesLifecycle } from '../files/files.lifecycle.js';
import { EMPTY_SUMMARY } from '../files/files.summary.js';
import type { User } from '../users/users.service.js';
import type { VocabulariesService } from '../vocabularies/vocabularies.service.js';
import type { RecordsRepository } from './records.repository.js';
import type { DraftRow, ParentData, ParentRow, PidRow, RecordRow } from './records.rows.js';
import { RecordAccessService } from './records-access.service.js';
import { RecordDraftsService } from './records-drafts.service.js';
import { RecordPidsService } from './records-pids.service.js';
import { RecordPublishingService } from './records-publishing.service.js';
import { RecordStore } from './records.shared.js';

/**
 * The records rules on an in-memory store: who may do what with a draft in which state, and the
 * version and DOI bookkeeping of publishing. No database: the store below keeps rows in maps and
 * answers the queries the services make as the repository does.
 */
class MemoryRecords {
  readonly parents = new Map<string, ParentRow>();
  readonly drafts = new Map<string, DraftRow>();
  readonly records = new Map<string, RecordRow>();
  readonly pids = new Map<string, PidRow>();
  /** Someone else's save that lands just before the next conditional draft write. */
  interleavedSave?: () => void;

  // A handle that is "already a transaction": inTransaction runs its callback in place.
  readonly executor = { isTransaction: true } as unknown as RecordsRepository['executor'];

  /** The store as the services see it: every method answers a promise, as the repository's do. */
  readonly asRepository = new Proxy(this, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function'
        ? (...args: unknown[]) =>
            Promise.resolve((value as (...a: unknown[]) => unknown).apply(target, args))
        : value;
    },
  }) as unknown as RecordsRepository;

  transaction<T>(fn: (trx: RecordsRepository) => Promise<T>): Promise<T> {
    return fn(this.asRepository);
  }

  insertParent(row: ParentRow) {
    this.parents.set(row.id, { ...row });
  }
  getParent(id: string) {
    return this.parents.get(id);
  }
  lockParent(id: string) {
    return this.parents.get(id);
  }
  lockParentOfDraft(id: string) {
    const draft = this.drafts.get(id);
    return draft && this.parents.get(draft.parentId);
  }
  updateParent(id: string, data: string, updatedAt: string) {
    this.parents.set(id, { ...this.parents.get(id)!, data, updatedAt });
  }
  deleteParent(id: string) {
    this.parents.delete(id);
  }
  setCommunities() {}
  isMemberOfCommunityOf() {
    return false;
  }

  getDraft(id: string) {
    return this.drafts.get(id);
  }
  getDraftContext(id: string) {
    const row = this.drafts.get(id);
    if (!row) return undefined;
    const versions = this.draftsOfParent(row.parentId).map((d) => d.versionIndex);
    return {
      row,
      parent: this.parents.get(row.parentId)!,
      isPublished: this.records.has(id),
      maxDraftVersion: Math.max(row.versionIndex, ...versions),
      ownerQuota: { maxFiles: null, maxBytes: null },
    };
  }
  draftsOfParent(parentId: string) {
    return [...this.drafts.values()]
      .filter((d) => d.parentId === parentId)
      .sort((a, b) => b.versionIndex - a.versionIndex);
  }
  insertDraft(row: DraftRow) {
    this.drafts.set(row.id, { ...row });
  }
  updateDraft(
    read: Pick<DraftRow, 'id' | 'revisionId'>,
    set: Pick<DraftRow, 'data' | 'updatedAt' | 'title' | 'searchText'>,
  ) {
    this.interleavedSave?.();
    this.interleavedSave = undefined;
    const row = this.drafts.get(read.id);
    if (!row || row.revisionId !== read.revisionId) return false;
    this.drafts.set(read.id, { ...row, ...set, revisionId: read.revisionId + 1 });
    return true;
  }
  deleteDraft(id: string) {
    this.drafts.delete(id);
  }

  getRecord(id: string) {
    return this.records.get(id);
  }
  getRecords(ids: string[]) {
    return ids.flatMap((id) => this.records.get(id) ?? []);
  }
  latestRecord(parentId: string) {
    return [...this.records.values()]
      .filter((r) => r.parentId === parentId && !r.deletedAt)
      .sort((a, b) => b.versionIndex - a.versionIndex)[0];
  }
  maxVersionIndex(parentId: string) {
    const all = [...this.drafts.values(), ...this.records.values()];
    return Math.max(0, ...all.filter((r) => r.parentId === parentId).map((r) => r.versionIndex));
  }
  upsertRecord(row: RecordRow) {
    this.records.set(row.id, { ...row });
  }
  setLatest(parentId: string, id: string) {
    for (const r of this.records.values())
      if (r.parentId === parentId) r.isLatest = r.id === id ? 1 : 0;
  }

  private key(scheme: string, identifier: string) {
    return `${scheme}:${identifier.toLowerCase()}`;
  }
  findPid(scheme: string, identifier: string) {
    return this.pids.get(this.key(scheme, identifier));
  }
  insertPid(row: Omit<PidRow, 'registrationAttempts' | 'registrationError' | 'nextAttemptAt'>) {
    const key = this.key(row.scheme, row.identifier);
    if (this.pids.has(key)) throw new Error(`duplicate pid ${key}`);
    this.pids.set(key, {
      registrationAttempts: 0,
      registrationError: null,
      nextAttemptAt: null,
      ...row,
      identifier: row.identifier.toLowerCase(),
    });
  }
  updatePid(scheme: string, identifier: string, set: Partial<PidRow>) {
    const found = this.pids.get(this.key(scheme, identifier));
    if (found) Object.assign(found, set);
  }
  deletePid(scheme: string, identifier: string) {
    this.pids.delete(this.key(scheme, identifier));
  }
  pidsOfRecord(recordId: string) {
    return [...this.pids.values()].filter((p) => p.recordId === recordId);
  }
}

const files = {
  publish: () => Promise.resolve({ summary: EMPTY_SUMMARY, released: [] }),
  edit: () => Promise.resolve(EMPTY_SUMMARY),
  discard: () => Promise.resolve({ released: [], uploads: [] }),
  release: () => Promise.resolve(),
} as unknown as FilesLifecycle;

const vocabularies = { assertExist: () => Promise.resolve() } as unknown as VocabulariesService;

const owner: User = { id: 1, email: 'owner@example.org', name: 'Owner', isAdmin: false };
const stranger: User = { id: 2, email: 'stranger@example.org', name: 'Stranger', isAdmin: false };
const curator: User = { id: 3, email: 'curator@example.org', name: 'Curator', isAdmin: false };

const metadataOnly = {
  metadata: {
    title: 'Rules',
    creators: [{ person_or_org: { type: 'personal', family_name: 'Owner', given_name: 'A' } }],
    publication_date: '2024-01-01',
    resource_type: { id: 'dataset' },
    publisher: 'Cairn',
  },
  files: { enabled: false },
  access: { record: 'public', files: 'public' },
};

function setUp(env: Record<string, string> = {}) {
  const config = loadConfig({
    CAIRN_DATA_DIR: path.join(os.tmpdir(), 'cairn-rules-test'),
    CAIRN_SITE_URL: 'https://cairn.test',
    CAIRN_DOI_PREFIX: '10.1234',
    ...env,
  });
  const repo = new MemoryRecords();
  const curated = new Set<string>();
  const store = new RecordStore(
    repo.asRepository,
    {
      isCurator: (community, userId) =>
        Promise.resolve(userId === curator.id && curated.has(community)),
    },
    // These rules are about owners and curators: nobody here holds a grant.
    { grantOf: () => Promise.resolve(undefined) },
  );
  const pids = new RecordPidsService(store, config);
  // Without DataCite configured, publishing never wakes the registration queue.
  const publishing = new RecordPublishingService(store, pids, vocabularies, config, files, {
    kick: () => {
      throw new Error('no DataCite in these tests');
    },
  });
  const drafts = new RecordDraftsService(store, pids, vocabularies, config, files, {
    prepareReview: () => Promise.reject(new Error('no review in these tests')),
  });
  const access = new RecordAccessService(store);
  return { config, repo, curated, store, pids, publishing, drafts, access };
}

type Services = ReturnType<typeof setUp>;

async function codeOf(action: Promise<unknown>): Promise<string> {
  try {
    await action;
  } catch (error) {
    return (error as AppError).code;
  }
  return 'ok';
}

function parentData(s: Services, parentId: string): ParentData {
  return JSON.parse(s.repo.parents.get(parentId)!.data as string) as ParentData;
}

async function submitForReview(s: Services, draftId: string, status: 'submitted' | 'declined') {
  const draft = s.repo.drafts.get(draftId)!;
  await s.store.setReview(draft.parentId, {
    id: 'request-1',
    type: 'community-submission',
    receiver: { community: 'community-1' },
    status,
  });
  s.curated.add('community-1');
}

describe('records rules (in memory)', () => {
  it('lets only the owner at a draft, and a curator only while its review is open', async () => {
    const s = setUp();
    const { row } = await s.drafts.createDraft(owner, metadataOnly);
    expect(await codeOf(s.drafts.readDraft(stranger, row.id))).toBe('PERMISSION_DENIED');
    expect(await codeOf(s.drafts.readDraft(undefined, row.id))).toBe('PERMISSION_DENIED');
    expect(await codeOf(s.drafts.readDraft(curator, row.id))).toBe('PERMISSION_DENIED');

    await submitForReview(s, row.id, 'submitted');
    expect(await codeOf(s.drafts.readDraft(curator, row.id))).toBe('ok');
    expect(await codeOf(s.drafts.updateDraft(curator, row.id, metadataOnly, undefined))).toBe('ok');
    // Reviewing is not managing: the curator may not discard the draft or reserve its versions.
    expect(await codeOf(s.drafts.deleteDraft(curator, row.id, undefined))).toBe(
      'PERMISSION_DENIED',
    );
    expect(await s.access.draftPermissions(curator, s.repo.parents.get(row.parentId)!)).toEqual({
      can_manage: false,
      can_new_version: false,
      can_delete_draft: false,
    });

    await submitForReview(s, row.id, 'declined');
    expect(await codeOf(s.drafts.readDraft(curator, row.id))).toBe('PERMISSION_DENIED');
  });

  it('refuses publishing or discarding a draft whose review is open', async () => {
    const s = setUp();
    const { row } = await s.drafts.createDraft(owner, metadataOnly);
    await submitForReview(s, row.id, 'submitted');
    expect(await codeOf(s.publishing.publish(owner, row.id))).toBe('OPEN_REVIEW_BLOCKS_PUBLISH');
    expect(await codeOf(s.drafts.deleteDraft(owner, row.id, undefined))).toBe('VALIDATION_FAILED');
    expect(s.repo.drafts.has(row.id)).toBe(true);
  });

  it('keeps one pending version per record and numbers versions in turn', async () => {
    const s = setUp();
    const first = (await s.drafts.createDraft(owner, metadataOnly)).row;
    expect(await codeOf(s.drafts.newVersion(owner, first.id))).toBe('PID_NOT_REGISTERED');
    await s.publishing.publish(owner, first.id);
    expect(await codeOf(s.drafts.newVersion(stranger, first.id))).toBe('PERMISSION_DENIED');

    const second = await s.drafts.newVersion(owner, first.id);
    expect(second.row.versionIndex).toBe(2);
    expect(second.row.parentId).toBe(first.parentId);
    expect((await s.drafts.newVersion(owner, first.id)).row.id).toBe(second.row.id);

    await s.publishing.publish(owner, second.row.id);
    const versions = [...s.repo.records.values()].map((r) => [r.versionIndex, r.isLatest]);
    expect(versions.sort()).toEqual([
      [1, 0],
      [2, 1],
    ]);
    expect((await s.drafts.newVersion(owner, first.id)).row.versionIndex).toBe(3);
  });

  it('mints a DOI for every version and one concept DOI for the parent when DOIs are required', async () => {
    const s = setUp({ CAIRN_DOI_REQUIRED: 'true' });
    const first = (await s.drafts.createDraft(owner, metadataOnly)).row;
    await s.publishing.publish(owner, first.id);
    const second = (await s.drafts.newVersion(owner, first.id)).row;
    await s.publishing.publish(owner, second.id);

    const byRecord = (id: string) => [...s.repo.pids.values()].filter((p) => p.recordId === id);
    expect(byRecord(first.id).map((p) => [p.identifier, p.status])).toEqual([
      [`10.1234/${first.id}`, 'registered'],
    ]);
    expect(byRecord(second.id).map((p) => p.identifier)).toEqual([`10.1234/${second.id}`]);
    expect(byRecord(first.parentId).map((p) => [p.identifier, p.status])).toEqual([
      [`10.1234/${first.parentId}`, 'registered'],
    ]);
    expect(parentData(s, first.parentId).pids.doi).toEqual({
      identifier: `10.1234/${first.parentId}`,
      provider: 'local',
      client: 'local',
    });
  });

  it('reserves a DOI once, discards it while new, and keeps it once registered', async () => {
    const s = setUp();
    const { row } = await s.drafts.createDraft(owner, metadataOnly);
    expect(await codeOf(s.pids.reservePid(stranger, row.id, 'doi'))).toBe('PERMISSION_DENIED');
    await s.pids.reservePid(owner, row.id, 'doi');
    expect(await codeOf(s.pids.reservePid(owner, row.id, 'doi'))).toBe('PID_ALREADY_EXISTS');
    expect(s.repo.findPid('doi', `10.1234/${row.id}`)?.status).toBe('new');

    await s.pids.discardPid(owner, row.id, 'doi');
    expect(s.repo.findPid('doi', `10.1234/${row.id}`)).toBeUndefined();
    expect(await codeOf(s.pids.discardPid(owner, row.id, 'doi'))).toBe('PID_DOES_NOT_EXIST');

    await s.pids.reservePid(owner, row.id, 'doi');
    await s.publishing.publish(owner, row.id);
    await s.drafts.edit(owner, row.id);
    expect(await codeOf(s.pids.discardPid(owner, row.id, 'doi'))).toBe('VALIDATION_FAILED');
  });

  it('holds a new version to the kind of DOI the version before it had', async () => {
    const s = setUp();
    const first = (await s.drafts.createDraft(owner, metadataOnly)).row;
    await s.pids.reservePid(owner, first.id, 'doi');
    await s.publishing.publish(owner, first.id);
    const second = (await s.drafts.newVersion(owner, first.id)).row;

    expect(await s.pids.doiTransition(second)).toBe('managed');
    expect(await codeOf(s.publishing.assertPublishable(second))).toBe('VALIDATION_FAILED');
    await s.pids.reservePid(owner, second.id, 'doi');
    await s.publishing.assertPublishable(s.repo.drafts.get(second.id)!);
  });

  it('names the revision a refused write met, as it now is', async () => {
    const s = setUp();
    const { row } = await s.drafts.createDraft(owner, metadataOnly);
    // Two saves by someone else land between reading the draft and writing its DOI.
    s.repo.interleavedSave = () => {
      const current = s.repo.drafts.get(row.id)!;
      s.repo.drafts.set(row.id, { ...current, revisionId: current.revisionId + 2 });
    };
    await expect(s.pids.reservePid(owner, row.id, 'doi')).rejects.toMatchObject({
      code: 'REVISION_MISMATCH',
      message: "Revision id provided(1) doesn't match record's one(3)",
    });
  });

  it('lifts an embargo whose date has come, in the record and its open edit', async () => {
    const s = setUp();
    const { row } = await s.drafts.createDraft(owner, {
      ...metadataOnly,
      access: {
        record: 'public',
        files: 'restricted',
        embargo: { active: true, until: '2999-01-01' },
      },
    });
    await s.publishing.publish(owner, row.id);
    await s.drafts.edit(owner, row.id);
    expect(s.repo.records.get(row.id)?.embargoUntil).toBe('2999-01-01');
    // The date comes: the repository finds the record due.
    Object.assign(s.repo, {
      expiredEmbargoes: () => [s.repo.records.get(row.id)],
      bumpRecordRevision: (id: string, data: string, updatedAt: string, set: object) => {
        const current = s.repo.records.get(id)!;
        s.repo.records.set(id, {
          ...current,
          ...set,
          data,
          updatedAt,
          revisionId: current.revisionId + 1,
        });
      },
    });
    s.repo.records.get(row.id)!.embargoUntil = '2000-01-01';
    expect(await s.access.liftExpiredEmbargoes()).toBe(1);
    const draft = JSON.parse(s.repo.drafts.get(row.id)!.data as string) as {
      access: { files: string; embargo: { active: boolean } };
    };
    expect(draft.access.files).toBe('public');
    expect(draft.access.embargo.active).toBe(false);
    expect(s.repo.records.get(row.id)?.embargoUntil).toBeNull();
  });
});
