import { OaiRepository } from './modules/oai/oai.repository.js';
import { OaiService } from './modules/oai/oai.service.js';
import { RecordDeletionService } from './modules/records/records-deletion.service.js';
import type { Config } from './config.js';
import type { DatabaseHandle } from './database/database.js';
import { migrateToLatest } from './database/migrate.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { UsersService } from './modules/users/users.service.js';
import { VocabulariesRepository } from './modules/vocabularies/vocabularies.repository.js';
import { VocabulariesService } from './modules/vocabularies/vocabularies.service.js';
import { VocabularyItemsRepository } from './modules/vocabularies/indexed/items.repository.js';
import { VocabularyItemsService } from './modules/vocabularies/indexed/items.service.js';
import { RecordsRepository } from './modules/records/records.repository.js';
import { RecordStore } from './modules/records/records.shared.js';
import { RecordAccessService } from './modules/records/records-access.service.js';
import { RecordDraftsService } from './modules/records/records-drafts.service.js';
import { MetadataImportService } from './modules/records/import/import.service.js';
import { RecordPidsService } from './modules/records/records-pids.service.js';
import { RecordPublishingService } from './modules/records/records-publishing.service.js';
import { RecordsSearchService } from './modules/records/records-search.service.js';
import { RecordsSearchRepository } from './modules/records/records-search.repository.js';
import { UserRecordsSearchRepository } from './modules/records/user-records-search.repository.js';
import { RecordsRenderer } from './modules/records/records.rendering.js';
import { DoiRegistrationService } from './modules/pids/doi-registration.service.js';
import { FilesLifecycle } from './modules/files/files.lifecycle.js';
import { FilesRepository } from './modules/files/files.repository.js';
import { FilesService } from './modules/files/files.service.js';
import { createFileStore } from './modules/files/storage/create-file-store.js';
import type { FileStore } from './modules/files/storage/file-store.js';
import { CommunitiesRepository } from './modules/communities/communities.repository.js';
import { CommunitiesService } from './modules/communities/communities.service.js';
import { RequestsRepository } from './modules/requests/requests.repository.js';
import { RequestsService } from './modules/requests/requests.service.js';
import { MembershipsRepository } from './modules/memberships/memberships.repository.js';
import { MembershipsService } from './modules/memberships/memberships.service.js';
import { ReviewsService } from './modules/reviews/reviews.service.js';
import { ReviewLinks } from './modules/reviews/review-links.js';
import { RecordCommunitiesService } from './modules/record-communities/record-communities.service.js';
import { RateLimitsRepository } from './modules/throttle/throttle.repository.js';
import { SitemapsRepository } from './modules/sitemaps/sitemaps.repository.js';
import { SitemapsService } from './modules/sitemaps/sitemaps.service.js';
import { MailOutboxRepository } from './modules/mail/outbox.repository.js';
import { MailSender } from './modules/mail/mail-sender.js';
import { GrantNotifications } from './modules/mail/grant-notifications.js';
import { RequestNotifications } from './modules/mail/request-notifications.js';
import { SecretLinksRepository } from './modules/access/secret-links.repository.js';
import { SecretLinksService } from './modules/access/secret-links.service.js';
import { GrantsRepository } from './modules/access/grants.repository.js';
import { GrantsService } from './modules/access/grants.service.js';
import { AccessRequestsRepository } from './modules/access/access-requests.repository.js';
import { AccessRequestsService } from './modules/access/access-requests.service.js';

/** Every service of the app, wired once; the HTTP layer and the CLI share them. */
export interface Services {
  config: Config;
  database: DatabaseHandle;
  users: UsersService;
  vocabularies: VocabulariesService;
  vocabularyItems: VocabularyItemsService;
  /** Who may see, edit and manage records and drafts; embargo lifting. */
  recordAccess: RecordAccessService;
  drafts: RecordDraftsService;
  /** Metadata read from a DOI or a file, for a draft's editor to review (saves nothing). */
  metadataImport: MetadataImportService;
  publishing: RecordPublishingService;
  recordPids: RecordPidsService;
  /** The parent's lock and the parent-level data the records services share. */
  recordStore: RecordStore;
  search: RecordsSearchService;
  /** Drafts, records and searches as the API answers them, with the render cache. */
  recordsRenderer: RecordsRenderer;
  /** The public pages crawlers are told of (read from the replica when there is one). */
  sitemaps: SitemapsService;
  doi: DoiRegistrationService;
  files: FilesService;
  store: FileStore;
  communities: CommunitiesService;
  requests: RequestsService;
  memberships: MembershipsService;
  reviews: ReviewsService;
  recordCommunities: RecordCommunitiesService;
  /** Throttling counters of login, sign-up and token creation. */
  rateLimits: RateLimitsRepository;
  /** The OAI-PMH repository harvesters read. */
  oai: OaiService;
  /** Administrators' deletion and restoration of published records. */
  recordDeletion: RecordDeletionService;
  /** Sends the e-mail outbox (started by the server, drained by a sweep). */
  mail: MailSender;
  /** Records' secret links, and what a request's link token grants. */
  secretLinks: SecretLinksService;
  /** Records' grants to people. */
  grants: GrantsService;
  /** Requests for access to records' restricted files, and the settings that allow them. */
  accessRequests: AccessRequestsService;
}

/** Migrates the database, loads shipped vocabularies into an empty one, and wires the services. */
export async function createServices(config: Config, database: DatabaseHandle): Promise<Services> {
  await migrateToLatest(
    database.db,
    config.database.kind === 'postgres' ? config.database.schema : undefined,
  );
  const vocabularyItems = new VocabularyItemsService(
    new VocabularyItemsRepository(database.db, database.engine),
  );
  const vocabularies = new VocabulariesService(
    new VocabulariesRepository(database.db),
    vocabularyItems,
  );
  await vocabularies.loadFixtures();
  const recordsRepo = new RecordsRepository(database.db, database.engine);
  const doi = new DoiRegistrationService(recordsRepo, vocabularies, config);
  const store = createFileStore(config);
  const lifecycle = new FilesLifecycle(store, database.db, database.engine);
  const users = new UsersService(new UsersRepository(database.db), config.sessionDays);
  const communities = new CommunitiesService(
    new CommunitiesRepository(database.db, database.engine),
    users,
  );
  const outbox = new MailOutboxRepository(database.db, database.engine);
  const mail = new MailSender(outbox, config.mail, config.siteUrl);
  const site = { url: config.siteUrl, name: config.siteName };
  const requests = new RequestsService(
    new RequestsRepository(database.db),
    communities,
    config.requestExpiryDays,
    new RequestNotifications(database.db, outbox, mail, site),
  );
  const grants = new GrantsRepository(database.db);
  const recordStore = new RecordStore(recordsRepo, communities, grants);
  const recordAccess = new RecordAccessService(recordStore);
  const recordPids = new RecordPidsService(recordStore, config);
  const publishing = new RecordPublishingService(
    recordStore,
    recordPids,
    vocabularies,
    config,
    lifecycle,
    doi,
  );
  const reviewLinks = new ReviewLinks(recordStore, communities, requests);
  const drafts = new RecordDraftsService(
    recordStore,
    recordPids,
    vocabularies,
    config,
    lifecycle,
    reviewLinks,
  );
  const files = new FilesService(
    new FilesRepository(database.db, database.engine),
    { store: recordStore, access: recordAccess, drafts },
    lifecycle,
    store,
    config,
  );
  const reviews = new ReviewsService(
    recordStore,
    recordAccess,
    drafts,
    publishing,
    reviewLinks,
    communities,
    requests,
    config.siteUrl,
  );
  const secretLinks = new SecretLinksService(new SecretLinksRepository(database.db), recordStore);
  const grantsService = new GrantsService(
    grants,
    recordStore,
    users,
    new GrantNotifications(database.db, outbox, mail, site),
  );
  return {
    config,
    database,
    users,
    vocabularies,
    vocabularyItems,
    recordAccess,
    drafts,
    metadataImport: new MetadataImportService(recordAccess, vocabularies, vocabularyItems, config),
    publishing,
    recordPids,
    recordStore,
    search: new RecordsSearchService(
      recordsRepo,
      new RecordsSearchRepository(database.reader, database.engine),
      new UserRecordsSearchRepository(database.db, database.engine),
      recordAccess,
    ),
    recordsRenderer: new RecordsRenderer(vocabularies),
    sitemaps: new SitemapsService(
      new SitemapsRepository(database.reader),
      config.sitemapUrlsPerFile,
    ),
    doi,
    files,
    store,
    communities,
    requests,
    memberships: new MembershipsService(
      database.db,
      new MembershipsRepository(database.db),
      communities,
      requests,
    ),
    reviews,
    recordCommunities: new RecordCommunitiesService(
      recordStore,
      recordAccess,
      communities,
      requests,
    ),
    rateLimits: new RateLimitsRepository(database.db),
    oai: new OaiService(new OaiRepository(database.reader), vocabularies, config),
    recordDeletion: new RecordDeletionService(
      recordStore,
      vocabularies,
      doi,
      config.access.ownerDeletionDays,
    ),
    mail,
    secretLinks,
    grants: grantsService,
    accessRequests: new AccessRequestsService(
      database.db,
      new AccessRequestsRepository(database.db),
      recordStore,
      recordAccess,
      requests,
      grantsService,
      secretLinks,
      { outbox, sender: mail },
      site,
    ),
  };
}
