// Writes the benchmark's large vocabularies: a ROR-style JSON dump of organisations and an
// ORCID-style CSV of people, deterministic for a given size so that runs compare.
//
//   node bench/suggest/generate.js DIR [--names N] [--organisations N]
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { random } from '../lib/random.js';

const GIVEN = (
  'Anna Maria Sofia Emma Olga Lea Lena Chloé Zoë Inès Mia Léa Ida Eva Hanna Jana Lucía Marta ' +
  'Ana Joana Beatriz Sara Yuki Mei Ling Aiko Priya Ananya Fatima Aisha Amara Zainab Ngozi Ewa ' +
  'Agnieszka Katarzyna Małgorzata Zsófia Réka Ingrid Sigrid Åsa Liv Astrid Nora Elif Zeynep ' +
  'Jonas Lukas Jürgen Matthias Thomas Peter Paul Jan Piotr Krzysztof Tomás José Luis Carlos ' +
  'Pedro João Miguel André François Étienne Noël Søren Björn Håkon Olaf Lars Mikael Ahmed Omar ' +
  'Yusuf Mehmet Emre Hiroshi Kenji Takeshi Wei Jun Hao Raj Arjun Vikram Kwame Chidi Tunde ' +
  'David Daniel Samuel Michael James John Robert William Richard Charles George Edward Henry'
).split(' ');
const SYLLABLES = (
  'mül ler schmidt sch neid er fisch we ber mey wag ner beck hoff man kra mer ko wal ski ' +
  'nowak wiś niew gar cía mar tín ez ló pez gon zá lez ro drí guez fer nán dez san tos sil va ' +
  'ros si rus so fer ra ri bian chi ro ma no col om bo dubois mo reau lau rent le roy ' +
  'tan aka wata nabe suzu ki ya ma kim lee park chen wang zhang liu singh pa tel sha rma ' +
  'okon kwo ade ye mi ba lo gun jo han sen nil sson ek lund berg ström holm quist dahl ' +
  'van der berg de vries jans sen bak ker vis ser smit mey er ho rvát h kis sza bó tót'
).split(' ');
const COUNTRIES =
  'DE FR GB US CH AT IT ES PT NL BE PL SE NO DK FI JP CN IN BR ZA NG KE AU CA'.split(' ');
const ORG_KIND = (
  'University Institute College Academy Centre Laboratory Hospital Foundation Society ' +
  'Observatory Museum Library Agency Council School'
).split(' ');
const ORG_TOPIC = (
  'Technology Science Medicine Physics Chemistry Biology Economics Arts Engineering Agriculture ' +
  'Research Health Marine Earth Space Social Sciences Humanities Mathematics Informatics Law'
).split(' ');
const CITIES = (
  'Berlin München Zürich Genève Paris Lyon London Oxford Cambridge Boston Madrid Lisboa Porto ' +
  'Amsterdam Leiden Bruxelles Kraków Warszawa Stockholm Uppsala Oslo København Helsinki Tokyo ' +
  'Kyoto Beijing Shanghai Mumbai Bengaluru São Paulo Nairobi Lagos Sydney Toronto Montréal'
).split(' ');

const ROR_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * The n-th ROR-shaped id: '0', six characters of ROR's alphabet, two digits.
 * @param {number} n
 */
export function rorId(n) {
  let body = '';
  let v = n;
  for (let i = 0; i < 6; i++) {
    body = ROR_ALPHABET[v % 32] + body;
    v = Math.floor(v / 32);
  }
  return `0${body}${String(n % 100).padStart(2, '0')}`;
}

/**
 * The n-th ORCID-shaped iD with a valid ISO 7064 11,2 check character.
 * @param {number} n
 */
export function orcid(n) {
  const base = `0009${String(n).padStart(11, '0')}`;
  let total = 0;
  for (const digit of base) total = (total + Number(digit)) * 2;
  const check = (12 - (total % 11)) % 11;
  const digits = base + (check === 10 ? 'X' : String(check));
  return (digits.match(/.{4}/g) ?? []).join('-');
}

/**
 * @param {() => number} rnd
 * @param {string[]} list
 * @returns {string}
 */
const pick = (rnd, list) => list[Math.floor(rnd() * list.length)] ?? '';

/**
 * @param {() => number} rnd
 * @returns {string}
 */
function familyName(rnd) {
  const parts = 1 + Math.floor(rnd() * 3);
  let name = '';
  for (let i = 0; i < parts; i++) name += pick(rnd, SYLLABLES);
  const capitalised = name.charAt(0).toUpperCase() + name.slice(1);
  return rnd() < 0.08 ? `${capitalised}-${familyName(rnd)}` : capitalised;
}

/**
 * @param {() => number} rnd
 * @param {number} n
 */
function organisationName(rnd, n) {
  const city = pick(rnd, CITIES);
  const kind = pick(rnd, ORG_KIND);
  const form = n % 3;
  if (form === 0) return `${kind} of ${pick(rnd, ORG_TOPIC)} ${city}`;
  if (form === 1) return `${city} ${kind} for ${pick(rnd, ORG_TOPIC)}`;
  return `${familyName(rnd)} ${kind} of ${pick(rnd, ORG_TOPIC)}`;
}

/**
 * @param {import('node:fs').WriteStream} stream
 * @param {string} text
 */
async function write(stream, text) {
  if (!stream.write(text)) await once(stream, 'drain');
}

/** @param {import('node:fs').WriteStream} stream */
async function close(stream) {
  stream.end();
  await once(stream, 'finish');
}

/**
 * Writes `organisations.json` (ROR schema v2) and `names.csv` into `dir`.
 * @param {string} dir
 * @param {{names: number, organisations: number}} sizes
 * @returns {Promise<{organisations: string, names: string, sampleNames: string[], sampleOrcids: string[]}>}
 */
export async function generate(dir, sizes) {
  await mkdir(dir, { recursive: true });
  const rnd = random(20261121);
  const organisations = path.join(dir, 'organisations.json');
  const orgs = createWriteStream(organisations);
  await write(orgs, '[\n');
  for (let n = 0; n < sizes.organisations; n++) {
    const name = organisationName(rnd, n);
    const acronym = name
      .split(' ')
      .filter((w) => /^[A-ZÀ-Ž]/.test(w))
      .map((w) => w[0])
      .join('');
    const record = {
      id: `https://ror.org/${rorId(n)}`,
      names: [
        { value: name, types: ['ror_display', 'label'], lang: null },
        { value: acronym, types: ['acronym'], lang: null },
      ],
      locations: [
        { geonames_details: { country_code: pick(rnd, COUNTRIES), name: pick(rnd, CITIES) } },
      ],
      external_ids: [],
      status: 'active',
      types: ['education'],
    };
    await write(orgs, `${n > 0 ? ',\n' : ''}${JSON.stringify(record)}`);
  }
  await write(orgs, '\n]\n');
  await close(orgs);

  const names = path.join(dir, 'names.csv');
  const people = createWriteStream(names);
  await write(people, 'orcid,given_names,family_name,affiliations\n');
  const sampleNames = [];
  const sampleOrcids = [];
  let batch = '';
  for (let n = 0; n < sizes.names; n++) {
    const given = pick(rnd, GIVEN);
    const family = familyName(rnd);
    const r = rnd();
    // Half of the people name a ROR organisation, a fifth a free-text one, the rest none.
    const affiliation =
      r < 0.5 && sizes.organisations > 0
        ? rorId(Math.floor(rnd() * sizes.organisations))
        : r < 0.7
          ? `"${pick(rnd, CITIES)} ${pick(rnd, ORG_KIND)}"`
          : '';
    const id = orcid(n);
    if (n % Math.max(1, Math.floor(sizes.names / 500)) === 0) {
      sampleNames.push(`${given} ${family}`);
      sampleOrcids.push(id);
    }
    batch += `${id},${given},${family},${affiliation}\n`;
    if (batch.length > 1 << 16) {
      await write(people, batch);
      batch = '';
    }
  }
  await write(people, batch);
  await close(people);
  return { organisations, names, sampleNames, sampleOrcids };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { names: { type: 'string' }, organisations: { type: 'string' } },
  });
  const dir = positionals[0];
  if (!dir) {
    process.stderr.write(
      'usage: node bench/suggest/generate.js DIR [--names N] [--organisations N]\n',
    );
    process.exit(2);
  }
  const sizes = {
    names: Number(values.names ?? 1_000_000),
    organisations: Number(values.organisations ?? 120_000),
  };
  const out = await generate(dir, sizes);
  process.stdout.write(`${out.organisations}\n${out.names}\n`);
}
