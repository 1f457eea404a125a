import type { Config } from '../../config.js';
import { htmlToText } from '../../lib/record-text.js';
import { xmlEscape } from '../records/exports/xml.js';
import type { ExportContext, ExportRecord } from '../records/exports/export-record.js';
import { oaiIdentifier } from '../records/record-id.js';
import { presentRecord, withIndexedLookup } from '../records/records.presenter.js';
import type { VocabulariesService } from '../vocabularies/vocabularies.service.js';
import { metadataFormats, type MetadataFormat } from './oai-formats.js';
import {
  datestamp,
  fromBound,
  parseOaiRequest,
  untilBound,
  type OaiError,
  type OaiErrorCode,
  type OaiRequest,
} from './oai-request.js';
import {
  decodeToken,
  encodeToken,
  TOKEN_LIFETIME_MS,
  type ListToken,
  type SetsToken,
} from './oai-token.js';
import type { HarvestedRecord, HarvestFilter, OaiRepository } from './oai.repository.js';

const SET_PREFIX = 'community-';

const ENVELOPE_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">\n';

type Parts = Iterable<string> | AsyncIterable<string>;
/** A verb's answer: its element's content, or the errors that take its place. */
type Answer = { parts: Parts } | { errors: OaiError[] };

function fail(code: OaiErrorCode, message: string): Answer {
  return { errors: [{ code, message }] };
}

/**
 * The OAI-PMH 2.0 repository: every verb over the published records, in Dublin Core and the
 * other formats of `metadataFormats`. A list's records are read a page at a time and rendered
 * one by one as the response is sent, so memory holds one page whatever the harvest's size.
 *
 * Records that readers may no longer see (deleted, or restricted after publication) are listed
 * as deleted, headers only: the repository keeps track of deletions persistently, so a harvester
 * that copied a record learns to drop it.
 */
export class OaiService {
  private readonly formats: readonly MetadataFormat[];

  constructor(
    private readonly repo: OaiRepository,
    private readonly vocabularies: VocabulariesService,
    private readonly config: Config,
  ) {
    this.formats = metadataFormats(config.doi.datacite?.username ?? config.siteName);
  }

  private format(prefix: string): MetadataFormat | undefined {
    return this.formats.find((f) => f.prefix === prefix);
  }

  get baseUrl(): string {
    return `${this.config.siteUrl}/oai2d`;
  }

  /** The response to the arguments of a query string or a form body, as chunks of XML. */
  async respond(encoded: string, now = new Date()): Promise<AsyncIterable<string>> {
    const parsed = parseOaiRequest(encoded);
    // After badVerb or badArgument the request element names the base URL only.
    if (!parsed.ok) return this.envelope(now, undefined, { errors: parsed.errors });
    return this.envelope(now, parsed.request, await this.answer(parsed.request, now));
  }

  private async *envelope(
    now: Date,
    request: OaiRequest | undefined,
    answer: Answer,
  ): AsyncIterable<string> {
    const attributes = request
      ? Object.entries({ verb: request.verb, ...request.args })
          .map(([k, v]) => ` ${k}="${xmlEscape(v)}"`)
          .join('')
      : '';
    yield (
      `${ENVELOPE_OPEN}<responseDate>${datestamp(now.toISOString())}</responseDate>\n` +
      `<request${attributes}>${xmlEscape(this.baseUrl)}</request>\n`
    );
    if ('errors' in answer) {
      for (const e of answer.errors)
        yield `<error code="${e.code}">${xmlEscape(e.message)}</error>\n`;
    } else {
      yield `<${request!.verb}>\n`;
      for await (const part of answer.parts) yield part;
      yield `</${request!.verb}>\n`;
    }
    yield '</OAI-PMH>\n';
  }

  private answer(request: OaiRequest, now: Date): Promise<Answer> {
    switch (request.verb) {
      case 'Identify':
        return this.identify();
      case 'ListMetadataFormats':
        return this.listMetadataFormats(request.args.identifier);
      case 'ListSets':
        return this.listSets(request.args.resumptionToken, now);
      case 'GetRecord':
        return this.getRecord(request.args.identifier!, request.args.metadataPrefix!);
      case 'ListIdentifiers':
      case 'ListRecords':
        return this.list(request, now);
    }
  }

  private async identify(): Promise<Answer> {
    const earliest = (await this.repo.earliestChange()) ?? new Date().toISOString();
    const host = new URL(this.config.siteUrl).hostname;
    const parts = [
      `<repositoryName>${xmlEscape(this.config.siteName)}</repositoryName>\n`,
      `<baseURL>${xmlEscape(this.baseUrl)}</baseURL>\n`,
      '<protocolVersion>2.0</protocolVersion>\n',
      `<adminEmail>${xmlEscape(this.config.adminEmail)}</adminEmail>\n`,
      `<earliestDatestamp>${datestamp(earliest)}</earliestDatestamp>\n`,
      '<deletedRecord>persistent</deletedRecord>\n',
      '<granularity>YYYY-MM-DDThh:mm:ssZ</granularity>\n',
    ];
    // The oai-identifier scheme takes a domain name of two or more labels; a site served as
    // localhost or on an address has identifiers all the same, but cannot describe them so.
    if (/^[a-zA-Z][a-zA-Z0-9-]*(\.[a-zA-Z][a-zA-Z0-9-]*)+$/.test(host))
      parts.push(
        '<description><oai-identifier xmlns="http://www.openarchives.org/OAI/2.0/oai-identifier" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai-identifier http://www.openarchives.org/OAI/2.0/oai-identifier.xsd">' +
          `<scheme>oai</scheme><repositoryIdentifier>${host}</repositoryIdentifier>` +
          `<delimiter>:</delimiter><sampleIdentifier>${oaiIdentifier(this.config.siteUrl, 'ha4g3-7x208')}</sampleIdentifier>` +
          '</oai-identifier></description>\n',
      );
    return { parts };
  }

  /** The record id an OAI identifier of this repository names, if it is one. */
  private recordIdOf(identifier: string): string | undefined {
    const prefix = oaiIdentifier(this.config.siteUrl, '');
    return identifier.startsWith(prefix) && identifier.length > prefix.length
      ? identifier.slice(prefix.length)
      : undefined;
  }

  private async findRecord(identifier: string): Promise<HarvestedRecord | undefined> {
    const id = this.recordIdOf(identifier);
    return id === undefined ? undefined : this.repo.record(id);
  }

  private async listMetadataFormats(identifier: string | undefined): Promise<Answer> {
    if (identifier !== undefined && !(await this.findRecord(identifier)))
      return fail('idDoesNotExist', `No record has the identifier "${identifier}".`);
    return {
      parts: this.formats.map(
        (f) =>
          `<metadataFormat><metadataPrefix>${f.prefix}</metadataPrefix><schema>${f.schema}</schema>` +
          `<metadataNamespace>${f.namespace}</metadataNamespace></metadataFormat>\n`,
      ),
    };
  }

  private async getRecord(identifier: string, prefix: string): Promise<Answer> {
    const format = this.format(prefix);
    // Both checks are made, so that a harvester learns of both mistakes at once.
    const found = await this.findRecord(identifier);
    const errors: OaiError[] = [];
    if (!format)
      errors.push({
        code: 'cannotDisseminateFormat',
        message: `"${prefix}" is not a metadata format of this repository.`,
      });
    if (!found)
      errors.push({
        code: 'idDoesNotExist',
        message: `No record has the identifier "${identifier}".`,
      });
    if (errors.length > 0) return { errors };
    return { parts: this.records([found!], format!, true) };
  }

  private expiry(now: Date): string {
    return new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString();
  }

  private async listSets(resumption: string | undefined, now: Date): Promise<Answer> {
    let token: SetsToken | undefined;
    if (resumption !== undefined) {
      const decoded = decodeToken(resumption, 'ListSets', now);
      if ('refusal' in decoded) return fail('badResumptionToken', decoded.refusal);
      token = decoded.token as SetsToken;
    }
    const size = this.config.oaiPageSize;
    const total = token?.n ?? (await this.repo.countSets());
    const sets = await this.repo.sets(token?.a, size + 1);
    if (sets.length === 0) {
      // An empty ListSets is not a valid answer; a repository without communities still has a
      // set hierarchy, so it says that no set matches rather than noSetHierarchy.
      return fail('noRecordsMatch', 'The repository has no public communities, so no sets.');
    }
    const page = sets.slice(0, size);
    const cursor = token?.c ?? 0;
    const parts = page.map((s) => {
      const description = htmlToText(s.description).trim();
      return (
        `<set><setSpec>${xmlEscape(SET_PREFIX + s.slug)}</setSpec><setName>${xmlEscape(s.title)}</setName>` +
        (description
          ? `<setDescription><oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd"><dc:description>${xmlEscape(description)}</dc:description></oai_dc:dc></setDescription>`
          : '') +
        '</set>\n'
      );
    });
    const more = sets.length > size;
    if (more || token)
      parts.push(
        resumptionElement(
          more
            ? encodeToken({
                k: 'ListSets',
                a: page.at(-1)!.slug,
                c: cursor + page.length,
                n: total,
                e: this.expiry(now),
              })
            : '',
          total,
          cursor,
          more ? this.expiry(now) : undefined,
        ),
      );
    return { parts };
  }

  private async list(request: OaiRequest, now: Date): Promise<Answer> {
    const verb = request.verb as ListToken['k'];
    let token: ListToken;
    if (request.args.resumptionToken !== undefined) {
      const decoded = decodeToken(request.args.resumptionToken, verb, now);
      if ('refusal' in decoded) return fail('badResumptionToken', decoded.refusal);
      token = decoded.token as ListToken;
    } else {
      const { metadataPrefix, from, until, set } = request.args;
      if (!this.format(metadataPrefix!))
        return fail(
          'cannotDisseminateFormat',
          `"${metadataPrefix}" is not a metadata format of this repository.`,
        );
      // The list is what had changed when it was first asked for: records changed while a
      // harvester pages through it come in its next incremental harvest, from this response's date.
      const asked = now.toISOString();
      const bound = until === undefined ? undefined : untilBound(until);
      const before = bound !== undefined && bound < asked ? bound : asked;
      token = {
        k: verb,
        m: metadataPrefix!,
        ...(set !== undefined ? { s: set } : {}),
        ...(from !== undefined ? { f: fromBound(from) } : {}),
        b: before,
        a: ['', ''],
        c: 0,
        n: 0,
        e: '',
      };
    }
    const format = this.format(token.m);
    if (!format)
      return fail('badResumptionToken', `The token names the unknown format "${token.m}".`);
    const filter: HarvestFilter = { before: token.b, ...(token.f ? { from: token.f } : {}) };
    if (token.s !== undefined) {
      const community = token.s.startsWith(SET_PREFIX)
        ? await this.repo.communityOfSet(token.s.slice(SET_PREFIX.length))
        : undefined;
      if (!community) return fail('noRecordsMatch', `The repository has no set "${token.s}".`);
      filter.communityId = community;
    }
    const resumed = token.a[1] !== '';
    const total = resumed ? token.n : await this.repo.count(filter);
    const size = this.config.oaiPageSize;
    const rows =
      total === 0
        ? []
        : await this.repo.page(
            filter,
            resumed ? { updatedAt: token.a[0], id: token.a[1] } : undefined,
            size + 1,
          );
    if (rows.length === 0)
      return fail('noRecordsMatch', 'No record matches the arguments of the request.');
    const page = rows.slice(0, size);
    const more = rows.length > size;
    const last = page.at(-1)!.row;
    const next = more
      ? encodeToken({
          ...token,
          a: [last.updatedAt, last.id],
          c: token.c + page.length,
          n: total,
          e: this.expiry(now),
        })
      : '';
    const tail =
      more || resumed
        ? [resumptionElement(next, total, token.c, more ? this.expiry(now) : undefined)]
        : [];
    return { parts: this.records(page, format, verb === 'ListRecords', tail) };
  }

  /** Records (or their headers) rendered one at a time as the response is written. */
  private async *records(
    found: HarvestedRecord[],
    format: MetadataFormat,
    withMetadata: boolean,
    tail: string[] = [],
  ): AsyncIterable<string> {
    const site = this.config.siteUrl;
    let present: ((h: HarvestedRecord) => ExportRecord) | undefined;
    let ctx: ExportContext | undefined;
    if (withMetadata) {
      const vocab = await this.vocabularies.snapshot();
      const options = await withIndexedLookup(
        { siteUrl: site, ui: false, expand: false, locale: this.config.defaultLocale, vocab },
        found.map((h) => h.row),
        this.vocabularies,
      );
      present = (h) => presentRecord(h.row, h.parent, options) as unknown as ExportRecord;
      ctx = { siteUrl: site, siteName: this.config.siteName, vocab };
    }
    for (const h of found) {
      const hidden = h.row.deletedAt !== null || h.row.accessRecord !== 'public';
      const header =
        `<header${hidden ? ' status="deleted"' : ''}>` +
        `<identifier>${oaiIdentifier(site, h.row.id)}</identifier>` +
        `<datestamp>${datestamp(h.row.updatedAt)}</datestamp>` +
        h.sets.map((s) => `<setSpec>${xmlEscape(SET_PREFIX + s)}</setSpec>`).join('') +
        '</header>';
      if (!withMetadata) yield `${header}\n`;
      else if (hidden) yield `<record>${header}</record>\n`;
      else
        yield `<record>${header}\n<metadata>\n${format.render(present!(h), ctx!)}\n</metadata>\n</record>\n`;
    }
    yield* tail;
  }
}

function resumptionElement(
  token: string,
  total: number,
  cursor: number,
  expires: string | undefined,
): string {
  const expiry = expires ? ` expirationDate="${datestamp(expires)}"` : '';
  return `<resumptionToken completeListSize="${total}" cursor="${cursor}"${expiry}>${token}</resumptionToken>\n`;
}
