import type { Bootstrap, CurrentUser } from '../../bootstrap';
import type { RecordJson } from '../../api/records';

/*
 * The parts of a record's JSON the landing page shows beyond what the shared record schema
 * types. They come from Cairn's own server (already validated on save), so they are read as
 * typed views here instead of being validated a second time.
 */

export type Localized = Record<string, string>;
export interface VocabRef {
  id?: string;
  title?: Localized;
}
export interface SchemedId {
  scheme?: string;
  identifier: string;
}
export interface Affiliation {
  id?: string;
  name?: string;
}
export interface Person {
  person_or_org?: {
    type?: string;
    name?: string;
    given_name?: string;
    family_name?: string;
    identifiers?: SchemedId[];
  };
  affiliations?: Affiliation[];
  role?: VocabRef;
}
export interface FileEntry {
  key: string;
  size?: number;
  mimetype?: string;
  checksum?: string | null;
  status?: string;
}

export interface LandingMetadata {
  title?: string;
  creators?: Person[];
  contributors?: Person[];
  description?: string;
  additional_titles?: Array<{ title: string; type?: VocabRef; lang?: VocabRef }>;
  additional_descriptions?: Array<{ description: string; type?: VocabRef; lang?: VocabRef }>;
  publication_date?: string;
  resource_type?: VocabRef;
  publisher?: string;
  version?: string;
  subjects?: Array<{ id?: string; subject?: string; scheme?: string }>;
  languages?: VocabRef[];
  dates?: Array<{ date: string; type?: VocabRef; description?: string }>;
  identifiers?: SchemedId[];
  related_identifiers?: Array<SchemedId & { relation_type?: VocabRef; resource_type?: VocabRef }>;
  rights?: Array<{
    id?: string;
    title?: Localized;
    description?: Localized;
    link?: string;
    props?: { url?: string };
  }>;
  funding?: Array<{
    funder?: { id?: string; name?: string };
    award?: { number?: string; title?: Localized; identifiers?: SchemedId[] };
  }>;
  references?: Array<{ reference: string; identifier?: string; scheme?: string }>;
  sizes?: string[];
  formats?: string[];
}

export interface LandingAccess {
  record?: string;
  files?: string;
  status?: string;
  embargo?: { active?: boolean; until?: string; reason?: string };
}

export interface LandingRecord {
  id: string;
  metadata: LandingMetadata;
  access: LandingAccess;
  files: {
    enabled: boolean;
    entries: FileEntry[];
    count: number;
    totalBytes: number;
    /**
     * The record holds more files than its JSON embeds (`files.entries_omitted`, Cairn's
     * extension): `entries` is empty and the files listing has them, a page at a time.
     */
    entriesOmitted: boolean;
    /** The file the record names to be previewed first, if any. */
    defaultPreview?: string;
  };
  doi?: string;
  ownerId?: string;
  parentId?: string;
  isDraft: boolean;
  links: Record<string, string | undefined>;
  versionIndex?: number;
  /** Who may ask the owner for restricted files, and on what conditions (`parent.access.settings`). */
  requests: { users: boolean; guests: boolean; conditions: string | null };
}

/** The landing page's view of a record or draft. */
export function landingView(record: RecordJson): LandingRecord {
  const raw = record as Record<string, unknown>;
  const files = (record.files ?? {}) as {
    enabled?: boolean;
    entries?: Record<string, FileEntry>;
    count?: number;
    total_bytes?: number;
    default_preview?: string | null;
    entries_omitted?: boolean;
  };
  const parent = raw.parent as
    | {
        id?: string;
        access?: {
          owned_by?: { user?: string };
          settings?: {
            allow_user_requests?: boolean;
            allow_guest_requests?: boolean;
            accept_conditions_text?: string | null;
          };
        };
      }
    | undefined;
  const settings = parent?.access?.settings ?? {};
  const pids = (record.pids ?? {}) as { doi?: { identifier?: string } };
  const entries = Object.values(files.entries ?? {}).sort((a, b) => a.key.localeCompare(b.key));
  return {
    id: record.id,
    metadata: record.metadata,
    access: record.access ?? {},
    files: {
      enabled: files.enabled === true,
      entries,
      count: files.count ?? entries.length,
      totalBytes: files.total_bytes ?? entries.reduce((sum, f) => sum + (f.size ?? 0), 0),
      entriesOmitted: files.entries_omitted === true,
      ...(files.default_preview ? { defaultPreview: files.default_preview } : {}),
    },
    ...(pids.doi?.identifier ? { doi: pids.doi.identifier } : {}),
    ...(parent?.access?.owned_by?.user ? { ownerId: parent.access.owned_by.user } : {}),
    ...(parent?.id ? { parentId: parent.id } : {}),
    isDraft: record.is_draft === true,
    links: record.links as Record<string, string | undefined>,
    requests: {
      users: settings.allow_user_requests === true,
      guests: settings.allow_guest_requests === true,
      conditions: settings.accept_conditions_text || null,
    },
    ...(typeof (raw.versions as { index?: unknown } | undefined)?.index === 'number'
      ? { versionIndex: (raw.versions as { index: number }).index }
      : {}),
  };
}

/**
 * Whether the reader may open the files: they are public and not under embargo, or the reader
 * owns the record (or is an admin), or the page was opened with a secret link to it, or the
 * reader holds a grant on it (the server names link and grant only then), as the files API
 * decides.
 */
export function canReadFiles(
  record: LandingRecord,
  user: CurrentUser | null,
  link: Bootstrap['link'] = null,
  grant: Bootstrap['grant'] = null,
): boolean {
  const { access } = record;
  const open = access.files !== 'restricted' && access.embargo?.active !== true;
  return open || isOwner(record, user) || link !== null || grant !== null;
}

export function isOwner(record: LandingRecord, user: CurrentUser | null): boolean {
  return (
    user !== null && (user.isAdmin || (record.ownerId !== undefined && record.ownerId === user.id))
  );
}

/** The title in the reader's language, else English, else any. */
export function l10n(text: Localized | undefined, language: string): string {
  if (!text) return '';
  return (
    text[language] ??
    text[language.split(/[-_]/)[0] ?? ''] ??
    text.en ??
    Object.values(text)[0] ??
    ''
  );
}

export function personName(p: Person['person_or_org']): string {
  if (!p) return '';
  return p.name?.trim() || [p.family_name, p.given_name].filter((s) => s?.trim()).join(', ');
}

export function identifierOf(ids: SchemedId[] | undefined, scheme: string): string | undefined {
  return ids?.find((i) => i.scheme?.toLowerCase() === scheme)?.identifier;
}

/** A resolvable link for an identifier, where its scheme has one. */
export function identifierUrl(id: SchemedId): string | undefined {
  const v = id.identifier.trim();
  switch (id.scheme?.toLowerCase()) {
    case 'doi':
      return `https://doi.org/${v}`;
    case 'orcid':
      return `https://orcid.org/${v}`;
    case 'ror':
      return `https://ror.org/${v}`;
    case 'arxiv':
      return `https://arxiv.org/abs/${v.replace(/^arxiv:/i, '')}`;
    case 'pmid':
      return `https://pubmed.ncbi.nlm.nih.gov/${v}`;
    case 'handle':
      return `https://hdl.handle.net/${v}`;
    case 'url':
      return /^https?:\/\//i.test(v) ? v : undefined;
    default:
      return /^https?:\/\//i.test(v) ? v : undefined;
  }
}
