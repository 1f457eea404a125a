import {
  loadRecord,
  MESSAGES,
  type ImportMetadataAnswer,
  type ImportFileFormat,
  type Metadata,
} from '@cairn/shared';
import type { Config } from '../../../config.js';
import { AppError } from '../../../errors.js';
import type { BodyReader } from '../../../lib/body.js';
import type { User } from '../../users/users.service.js';
import type { VocabularyItemsService } from '../../vocabularies/indexed/items.service.js';
import type { VocabulariesService } from '../../vocabularies/vocabularies.service.js';
import type { RecordAccessService } from '../records-access.service.js';
import { validationOptions, type LinkGrant } from '../records.shared.js';
import { fetchDoiMetadata } from './doi-sources.js';
import { readImportFile } from './formats.js';
import type { ImportedRecord } from './imported.js';
import { identifierEntry, resolveImport, type ImportVocabularies } from './resolve.js';

/** `POST …/draft/actions/import-metadata`: a DOI, or a file's text and (optionally) its format. */
export type ImportInput = { doi: string } | { content: string; format?: ImportFileFormat };

/**
 * Reads metadata from a DOI or a file into the draft's shapes, matched against the vocabularies,
 * for the editor to review: nothing is saved. Whoever may edit the draft may import into it.
 */
export class MetadataImportService {
  private readonly vocab: ImportVocabularies;

  constructor(
    private readonly access: RecordAccessService,
    vocabularies: VocabulariesService,
    items: VocabularyItemsService,
    private readonly config: Config,
  ) {
    this.vocab = {
      list: (type) => vocabularies.list(type),
      findExact: (type, wanted) => items.findExact(type, wanted),
      existing: async (type, ids) => new Set((await items.existing(type, ids)).keys()),
    };
  }

  async importMetadata(
    user: User | undefined,
    id: string,
    readInput: BodyReader<ImportInput>,
    link?: LinkGrant,
  ): Promise<ImportMetadataAnswer> {
    // The draft's permission first: a stranger learns nothing, and no registry is asked for them.
    await this.access.draftToEdit(user, id, link);
    const input = readInput();
    let imported: ImportedRecord;
    let source: ImportMetadataAnswer['source'];
    if ('doi' in input) {
      const found = await fetchDoiMetadata(input.doi, {
        ...this.config.metadataImport,
        userAgent: `Cairn (${this.config.siteUrl}; mailto:${this.config.adminEmail})`,
      });
      imported = found.imported;
      source = { format: 'doi', doi: found.doi, agency: found.agency, url: found.url };
    } else {
      const bytes = Buffer.byteLength(input.content, 'utf8');
      if (bytes > this.config.metadataImport.maxFileBytes) throw fileTooLarge(this.config);
      const read = readImportFile(input.content, input.format);
      imported = read.imported;
      source = { format: read.format, ...(imported.doi ? { doi: imported.doi } : {}) };
    }
    const { metadata, unmatched } = await resolveImport(imported, this.vocab);
    // The draft's own rules: what it could not store (an invalid ORCID, a date that is no EDTF)
    // is left out and said so, as saving the draft would.
    const loaded = loadRecord({ metadata }, validationOptions(this.config));
    // What the source lacks is the person's to fill in, not a fault of the import.
    const errors = loaded.errors.filter(
      (e) => e.field.startsWith('metadata.') && !e.messages.every((m) => m === MESSAGES.required),
    );
    const doi = source.doi ? identifierEntry(source.doi, 'doi')[0] : undefined;
    return {
      metadata: pruneEmpty(loaded.data.metadata),
      unmatched,
      errors,
      source,
      suggested_related_identifiers: doi
        ? ['isderivedfrom', 'issupplementto'].map((relation) => ({
            scheme: 'doi' as const,
            identifier: doi.identifier,
            relation_type: { id: relation },
            ...(metadata.resource_type ? { resource_type: metadata.resource_type } : {}),
          }))
        : [],
    };
  }
}

/** The draft's loader fills every list; an import answers only what it would set. */
function pruneEmpty(metadata: Metadata): Metadata {
  return Object.fromEntries(
    Object.entries(metadata).filter(
      ([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0),
    ),
  );
}

export function fileTooLarge(config: Config): AppError {
  const mb = config.metadataImport.maxFileBytes / (1024 * 1024);
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than ${mb} MB, the most an import reads. Metadata files are far smaller: is it the right file?`,
  );
}
