import { Readable } from 'node:stream';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../../test/databases.js';
import { createTestApp, type TestApp } from '../../../../test/app.js';
import type { IndexedType } from '../kinds.js';
import { ImportFailed, importVocabulary } from './importer.js';
import { SAMPLES_DIR as SAMPLES } from './samples.js';

function text(content: string) {
  return Readable.from([Buffer.from(content, 'utf8')]);
}

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
    (await t.services.vocabularyItems.search(type, { size: '100' })).total;

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

  it('takes the last of repeated ids in one file', async () => {
    const csv = 'id,subject,scheme\nx-1,First,Test\nx-1,Second,Test\n';
    expect(await run('subjects', csv, 'csv')).toMatchObject({ records: 2, inserted: 1 });
    expect((await t.services.vocabularyItems.read('subjects', 'x-1')).data.subject).toBe('Second');
  });
});
