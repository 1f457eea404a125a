import { Readable } from 'node:stream';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../../test/databases.js';
import { createTestApp, type TestApp } from '../../../../test/app.js';
import type { IndexedType } from '../kinds.js';
import { sql } from 'kysely';
import { ImportAborted, ImportFailed, importVocabulary } from './importer.js';
import { SAMPLES_DIR as SAMPLES } from './samples.js';

function text(content: string) {
  return Readable.from([Buffer.from(content, 'utf8')]);
}

/** The n-th ORCID iD of the 0009 block, with its ISO 7064 11,2 check character. */
function orcid(n: number): string {
  const base = `0009${String(n).padStart(11, '0')}`;
  let total = 0;
  for (const digit of base) total = (total + Number(digit)) * 2;
  const check = (12 - (total % 11)) % 11;
  return `${base}${check === 10 ? 'X' : check}`.replace(/(\d{4})(?=.)/g, '$1-');
}

const NAMES_HEADER = 'orcid,given_names,family_name,affiliations';

/** `count` valid names CSV rows, starting at `from`; row k is on line k + 2 of a file. */
function nameRows(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, k) => `${orcid(from + k)},Given${k},Family${from + k},`);
}

/** A dump handed over a few rows at a time, as a file is read. */
function* chunksOf(lines: string[], size = 500): Generator<Buffer> {
  for (let i = 0; i < lines.length; i += size) {
    yield Buffer.from(`${lines.slice(i, i + size).join('\n')}\n`);
  }
}
const inChunks = (lines: string[], size?: number) => Readable.from(chunksOf(lines, size));

describe.each(ENGINES)('vocabulary imports on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(engine);
  });
  afterAll(() => t.close());

  const run = (type: IndexedType, content: string | string[], format: 'csv' | 'json') =>
    importVocabulary(
      t.services.vocabularyItems,
      type,
      typeof content === 'string'
        ? text(content)
        : fs.createReadStream(path.join(SAMPLES, ...content)),
      { format, locale: 'en' },
    );
  const count = async (type: IndexedType) =>
    (await t.services.vocabularyItems.search(type, { size: 100 })).total;
  const stored = (id: string) =>
    t.services.vocabularyItems.read('names', id).then(
      () => true,
      () => false,
    );

  it('reads ROR schema v1 and v2 alike, and a second run changes nothing', async () => {
    const v1 = await run('affiliations', ['ror-v1.json'], 'json');
    expect(v1).toEqual({ records: 3, inserted: 3, updated: 0, unchanged: 0 });
    const v1Cern = (await t.services.vocabularyItems.read('affiliations', '01ggx4157')).data;
    const v2 = await run('affiliations', ['ror-v2.json'], 'json');
    expect(v2.records).toBe(13);
    expect(v2.inserted).toBe(10);
    const v2Cern = (await t.services.vocabularyItems.read('affiliations', '01ggx4157')).data;
    // v1 spelled types capitalised; otherwise both schemas give the same affiliation.
    expect({ ...v1Cern, types: undefined }).toEqual({ ...v2Cern, types: undefined });
    const again = await run('affiliations', ['ror-v2.json'], 'json');
    expect(again).toEqual({ records: 13, inserted: 0, updated: 0, unchanged: 13 });
    expect((await t.services.vocabularyItems.read('affiliations', '05a28rw58')).revisionId).toBe(
      v2.updated > 0 ? 2 : 1,
    );
  });

  it('updates a changed record in place and keeps its search terms current', async () => {
    await run('subjects', ['subjects.csv'], 'csv');
    const changed = await run(
      'subjects',
      'id,subject,scheme\nhttps://id.nlm.nih.gov/mesh/D000003,Slaughterhouses,MeSH\n',
      'csv',
    );
    expect(changed).toMatchObject({ updated: 1, inserted: 0 });
    const found = await t.services.vocabularyItems.search('subjects', { q: 'slaughter' });
    expect(found.items.map((i) => i.id)).toEqual(['https://id.nlm.nih.gov/mesh/D000003']);
    expect((await t.services.vocabularyItems.search('subjects', { q: 'abattoirs' })).total).toBe(0);
  });

  it('reports every bad line with its reason and imports nothing', async () => {
    const before = await count('names');
    const csv = [
      'orcid,given_names,family_name,affiliations',
      '0000-0002-1825-0097,Josiah,Carberry,',
      '0000-0002-1825-0098,Bad,Checksum,',
      ',Nobody,,',
      '0009-0000-0000-0009,Anna,Müller,0abcdef12',
    ].join('\n');
    const error = (await run('names', csv, 'csv').catch((e: unknown) => e)) as ImportFailed;
    expect(error).toBeInstanceOf(ImportFailed);
    expect(error.problems).toEqual([
      { line: 3, reason: 'identifiers.0.identifier: Invalid ORCID identifier.' },
      {
        line: 4,
        reason: 'family_name: Family name cannot be blank.; id: An id or an ORCID iD is required.',
      },
      { line: 5, reason: 'affiliations.0.id: Unknown affiliation 0abcdef12.' },
    ]);
    expect(await count('names')).toBe(before);
  });

  it('stops at a syntax error, naming the line, with nothing stored', async () => {
    const before = await count('funders');
    const broken = '[{"id": "https://ror.org/00k4n6c32", "name": "European Commission"},\n{"id": ';
    await expect(run('funders', broken, 'json')).rejects.toMatchObject({
      problems: [{ line: 2, reason: 'The file ends inside the array.' }],
    });
    await expect(run('funders', '[{"id": "https://example.org/x"}]', 'json')).rejects.toMatchObject(
      {
        problems: [{ line: 1, reason: 'id: not a ROR id (https://ror.org/…).' }],
      },
    );
    expect(await count('funders')).toBe(before);
  });

  it('needs the funder of an award to exist, and names it', async () => {
    await expect(run('awards', ['awards.csv'], 'csv')).rejects.toMatchObject({
      problems: [
        { line: 2, reason: 'funder.id: Unknown funder 00k4n6c32.' },
        { line: 3, reason: 'funder.id: Unknown funder 00k4n6c32.' },
        { line: 4, reason: 'funder.id: Unknown funder 00k4n6c32.' },
      ],
    });
    await run('funders', ['ror-v2.json'], 'json');
    expect(await run('awards', ['awards.csv'], 'csv')).toMatchObject({ inserted: 3 });
    const award = await t.services.vocabularyItems.read('awards', '00k4n6c32::777541');
    expect(award.data).toEqual({
      id: '00k4n6c32::777541',
      number: '777541',
      title: { en: 'OpenAIRE Advancing Open Scholarship' },
      acronym: 'OpenAIRE-Advance',
      program: 'H2020',
      funder: { id: '00k4n6c32', name: 'European Commission' },
      identifiers: [{ scheme: 'url', identifier: 'https://cordis.europa.eu/project/id/777541' }],
    });
  });

  it('imports awards from JSON, in the API shape or with a funder URL, plain title and URL', async () => {
    await run('funders', ['ror-v2.json'], 'json');
    const json = JSON.stringify([
      {
        id: '00k4n6c32::101017536',
        number: '101017536',
        title: { en: 'Open Research Europe', de: 'Offene Forschung Europa' },
        acronym: 'ORE',
        funder: { id: '00k4n6c32' },
        identifiers: [{ scheme: 'doi', identifier: '10.3030/101017536' }],
      },
      {
        number: '823852',
        title: 'Bringing Research Data to the Cloud',
        funder: 'https://ror.org/00k4n6c32',
        program: 'H2020',
        url: 'https://cordis.europa.eu/project/id/823852',
      },
    ]);
    expect(await run('awards', json, 'json')).toMatchObject({ records: 2, inserted: 2 });
    expect((await t.services.vocabularyItems.read('awards', '00k4n6c32::101017536')).data).toEqual({
      id: '00k4n6c32::101017536',
      number: '101017536',
      title: { en: 'Open Research Europe', de: 'Offene Forschung Europa' },
      acronym: 'ORE',
      funder: { id: '00k4n6c32', name: 'European Commission' },
      identifiers: [{ scheme: 'doi', identifier: '10.3030/101017536' }],
    });
    expect((await t.services.vocabularyItems.read('awards', '00k4n6c32::823852')).data).toEqual({
      id: '00k4n6c32::823852',
      number: '823852',
      title: { en: 'Bringing Research Data to the Cloud' },
      program: 'H2020',
      funder: { id: '00k4n6c32', name: 'European Commission' },
      identifiers: [{ scheme: 'url', identifier: 'https://cordis.europa.eu/project/id/823852' }],
    });
    // Found by a word of the German title and by the number typed whole.
    const offene = await t.services.vocabularyItems.search('awards', { q: 'offene' });
    expect(offene.items.map((i) => i.id)).toEqual(['00k4n6c32::101017536']);
    const byNumber = await t.services.vocabularyItems.search('awards', { q: '823852' });
    expect(byNumber.items.map((i) => i.id)).toEqual(['00k4n6c32::823852']);
    await expect(
      run('awards', '[{"number": "1", "funder": "https://ror.org/0nosuch00"}]', 'json'),
    ).rejects.toMatchObject({
      problems: [{ line: 1, reason: 'funder.id: Unknown funder 0nosuch00.' }],
    });
  });

  it('takes the last of repeated ids in one file', async () => {
    const csv = 'id,subject,scheme\nx-1,First,Test\nx-1,Second,Test\n';
    expect(await run('subjects', csv, 'csv')).toMatchObject({ records: 2, inserted: 1 });
    expect((await t.services.vocabularyItems.read('subjects', 'x-1')).data.subject).toBe('Second');
  });

  it('stops at a malformed line after batches were written, with nothing stored', async () => {
    const rows = nameRows(5000, 500_000);
    rows[4200] = `${orcid(504_200)},Anna,Mül"ler,`;
    await expect(
      importVocabulary(t.services.vocabularyItems, 'names', inChunks([NAMES_HEADER, ...rows]), {
        format: 'csv',
        locale: 'en',
      }),
    ).rejects.toMatchObject({
      problems: [{ line: 4202, reason: 'A quote inside an unquoted field.' }],
    });
    expect(await stored(orcid(500_000))).toBe(false);
  });

  it('reports a bad record far into the file by its line, with nothing stored', async () => {
    const rows = nameRows(5000, 510_000);
    rows[4321] = '0000-0002-1825-0098,Bad,Checksum,';
    const error = (await importVocabulary(
      t.services.vocabularyItems,
      'names',
      inChunks([NAMES_HEADER, ...rows]),
      { format: 'csv', locale: 'en' },
    ).catch((e: unknown) => e)) as ImportFailed;
    expect(error).toBeInstanceOf(ImportFailed);
    expect(error.problems).toEqual([
      { line: 4323, reason: 'identifiers.0.identifier: Invalid ORCID identifier.' },
    ]);
    expect(await stored(orcid(510_000))).toBe(false);
  });

  it('stores nothing when the file cannot be read to the end', async () => {
    function* failing() {
      yield* chunksOf([NAMES_HEADER, ...nameRows(4000, 520_000)]);
      throw new Error('EIO: i/o error, read');
    }
    await expect(
      importVocabulary(t.services.vocabularyItems, 'names', Readable.from(failing()), {
        format: 'csv',
        locale: 'en',
      }),
    ).rejects.toThrow('EIO: i/o error, read');
    expect(await stored(orcid(520_000))).toBe(false);
  });

  it('stores nothing when its worker thread fails, here for want of memory', async () => {
    // A quoted field that never ends: the reader holds it whole, past the worker's heap limit.
    function* endless() {
      yield* chunksOf([NAMES_HEADER, ...nameRows(4000, 530_000)]);
      yield Buffer.from(`${orcid(534_000)},Anna,"`);
      const mib = 'x'.repeat(2 ** 20);
      for (let i = 0; i < 256; i++) yield mib;
    }
    const error = await importVocabulary(
      t.services.vocabularyItems,
      'names',
      Readable.from(endless()),
      {
        format: 'csv',
        locale: 'en',
        workerHeapMb: 32,
      },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportAborted);
    expect((error as Error).message).toBe(
      'Reading the file needed more than 32 MB of memory: is a record unterminated?',
    );
    expect(await stored(orcid(530_000))).toBe(false);
  });

  it.runIf(engine === 'sqlite')(
    'rebuilds the browse index it set aside during a large import, also when it fails',
    async () => {
      const indexed = async () =>
        (
          await sql<{ name: string }>`select name from sqlite_master
            where name = 'vocabulary_items_sort_idx'`.execute(t.services.database.db)
        ).rows.length === 1;
      const rows = nameRows(120_000, 600_000).reverse();
      const bad = [NAMES_HEADER, ...rows, '0000-0002-1825-0098,Bad,Checksum,'];
      await expect(
        importVocabulary(t.services.vocabularyItems, 'names', inChunks(bad, 5000), {
          format: 'csv',
          locale: 'en',
        }),
      ).rejects.toBeInstanceOf(ImportFailed);
      expect(await indexed()).toBe(true);
      expect(await stored(orcid(600_000))).toBe(false);

      const result = await importVocabulary(
        t.services.vocabularyItems,
        'names',
        inChunks([NAMES_HEADER, ...rows], 5000),
        { format: 'csv', locale: 'en' },
      );
      expect(result).toMatchObject({ records: 120_000, inserted: 120_000 });
      expect(await indexed()).toBe(true);
      // Browsing reads that index: family names in order, though the file had them reversed.
      const page = await t.services.vocabularyItems.search('names', {
        sort: 'name',
        size: 3,
        q: 'family6000',
      });
      expect(page.items.map((i) => i.data.family_name)).toEqual([
        'Family600000',
        'Family600001',
        'Family600002',
      ]);
      const plan = await sql<{ detail: string }>`explain query plan
        select pk from vocabulary_items where type = 'names' order by sort_key, pk limit 3`.execute(
        t.services.database.db,
      );
      expect(plan.rows.map((r) => r.detail).join(' ')).toContain('vocabulary_items_sort_idx');
    },
    // Two imports of 120,000 names: well inside the default on a quiet machine, not on a busy one.
    120_000,
  );
});
