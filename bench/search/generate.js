// Published records for the records search benchmark, deterministic for a given seed so that runs
// compare: titles and descriptions drawn from a long-tailed (Zipf) vocabulary with the common
// phrases of research titles, 1–20 creators, 0–5 subjects, 30 resource types, 50 languages,
// communities, 40 years of publication dates and 0–10 files of mixed types.
import { random } from '../lib/random.js';
import { orcid } from '../suggest/generate.js';

/**
 * @typedef {import('@cairn/server').BulkRecord} BulkRecord
 */

// Function words first: they are the most frequent words of any English text, and PostgreSQL's
// English configuration drops them while SQLite's FTS5 indexes them.
const FUNCTION_WORDS = 'the of and in for a on with from by to at using between under'.split(' ');
// Research vocabulary, most frequent first; the long tail is made of generated words below.
const CONTENT_WORDS = (
  'data analysis model study climate measurements results water temperature ocean dataset ' +
  'soil regional global samples species surface network experimental simulation energy ' +
  'effects growth spatial population dynamics carbon protein cell structure river response ' +
  'survey field monitoring observations sediment forest urban high resolution cancer gene ' +
  'patients health learning algorithm code software quality air ice glacier marine coastal ' +
  'mapping time series seasonal annual historical long term changes variability national ' +
  'archive collection images interviews evaluation assessment framework method approach ' +
  'theory evidence review systematic report project workshop conference proceedings thesis ' +
  'chemical physical biological genetic genome sequencing microbial bacterial plant animal ' +
  'human social economic political policy education students school language corpus text ' +
  'speech audio video imaging microscopy spectroscopy laser optical quantum magnetic electric ' +
  'solar wind power battery hydrogen fuel emissions pollution nitrogen phosphorus oxygen ' +
  'methane drought rainfall precipitation flood snow permafrost arctic antarctic tropical ' +
  'mountain lake wetland groundwater aquifer estuary reef fisheries biodiversity ecology ' +
  'conservation habitat migration behaviour neural brain cognitive clinical trial vaccine ' +
  'infection virus immune disease risk mortality cohort prevalence diagnosis treatment drug ' +
  'materials alloy polymer crystal nanoparticles catalysis synthesis reaction thermal ' +
  'mechanical stress fracture seismic earthquake volcanic tectonic geochemistry isotope ' +
  'radiocarbon archaeology excavation heritage museum manuscript medieval ancient colonial ' +
  'history literature music art design architecture city transport mobility traffic ' +
  'satellite remote sensing lidar radar drone calibration validation benchmark performance ' +
  'optimization statistics bayesian inference regression classification prediction ' +
  'forecast uncertainty sensitivity scenario projection trends distribution abundance ' +
  'diversity community composition interactions mechanisms processes pathways regulation'
).split(/\s+/);
const PHRASES = [
  'climate change',
  'machine learning',
  'time series',
  'sea level',
  'deep learning',
  'remote sensing',
  'gene expression',
  'neural network',
  'case study',
  'air quality',
  'land use',
  'water quality',
  'soil moisture',
  'open source',
  'mass spectrometry',
  'public health',
  'field work',
  'ice sheet',
  'carbon dioxide',
  'data set',
];
const SYLLABLES = (
  'ka lo mi ra ten sor vel din pa ru ex ol mar quin sta bel tor ni zen ca por lu fi gra ' +
  'dre mon sel vu ha tri pen cor dal ve so ab ni ul ar ip om ect ung ry tis cal mus'
).split(' ');
const GIVEN = (
  'Anna Maria Sofia Emma Olga Lea Lena Chloé Zoë Inès Mia Léa Ida Eva Hanna Jana Lucía Marta ' +
  'Yuki Mei Ling Aiko Priya Ananya Fatima Aisha Amara Zainab Ngozi Ewa Zsófia Ingrid Åsa ' +
  'Jonas Lukas Jürgen Thomas Peter Paul Jan Piotr Tomás José Luis Carlos João Miguel André ' +
  'François Søren Björn Olaf Lars Ahmed Omar Yusuf Mehmet Hiroshi Kenji Wei Jun Raj Arjun ' +
  'Kwame Chidi David Daniel Samuel Michael James John Robert William Richard George Henry'
).split(/\s+/);
const FAMILY_SYLLABLES = (
  'mül ler schmidt neid er fisch we ber mey wag ner beck hoff man kra ko wal ski nowak gar ' +
  'cía mar tín ló pez gon zá lez san tos sil va ros si rus so fer ra ri bian chi ro ma no ' +
  'dubois mo reau tan aka wata nabe suzu ki ya kim lee park chen wang zhang liu singh pa ' +
  'tel sha rma okon kwo ade ye ba lo gun han sen nil son ek lund berg ström holm dahl'
).split(/\s+/);
const ORG_KIND = 'University Institute College Academy Centre Laboratory Observatory'.split(' ');
const ORG_TOPIC = (
  'Technology Science Medicine Physics Chemistry Biology Economics Engineering Agriculture ' +
  'Marine Earth Space Humanities Mathematics Informatics'
).split(/\s+/);
const CITIES = (
  'Berlin München Zürich Genève Paris Lyon London Oxford Boston Madrid Lisboa Amsterdam ' +
  'Leiden Kraków Stockholm Oslo Helsinki Tokyo Kyoto Beijing Mumbai Nairobi Lagos Sydney'
).split(/\s+/);
/** 30 resource types of InvenioRDM's vocabulary, the most deposited first. */
const RESOURCE_TYPES = (
  'dataset publication-article software image-figure publication-preprint ' +
  'publication-conferencepaper presentation poster publication-report publication-book ' +
  'publication-section image-photo image-plot video audio publication-dissertation lesson ' +
  'publication-workingpaper software-computationalnotebook model physicalobject event ' +
  'workflow publication-datapaper publication-technicalnote image-diagram ' +
  'publication-deliverable publication-proposal publication-softwaredocumentation other'
).split(/\s+/);
/** 50 ISO 639-3 ids of the languages vocabulary, English far ahead. */
const LANGUAGES = (
  'eng deu fra spa por ita nld pol rus jpn cmn kor swe nor dan fin ces hun ell tur ara heb ' +
  'hin ben fas ind msa vie tha ukr ron bul hrv slk slv lit lav est cat eus glg isl gle cym ' +
  'lat afr swa amh zul'
).split(/\s+/);
const FILE_TYPES = [
  ['csv', 'text/csv'],
  ['pdf', 'application/pdf'],
  ['zip', 'application/zip'],
  ['txt', 'text/plain'],
  ['json', 'application/json'],
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['tif', 'image/tiff'],
  ['nc', 'application/x-netcdf'],
  ['h5', 'application/x-hdf5'],
  ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['py', 'text/x-python'],
  ['ipynb', 'application/x-ipynb+json'],
  ['r', 'text/plain'],
  ['md', 'text/markdown'],
  ['xml', 'application/xml'],
  ['mat', 'application/octet-stream'],
  ['gz', 'application/gzip'],
  ['fits', 'application/fits'],
];
/** Distinct words of the vocabulary, the function and content words included. */
const VOCABULARY_SIZE = 30_000;
const SUBJECTS = 5_000;
/** Of the words of a text, how many start one of the common phrases. */
const PHRASE_SHARE = 0.005;
const FIRST_YEAR = 1986;
const YEARS = 40;
const PUBLISHED_FROM = Date.parse('2015-01-01T00:00:00Z');
const PUBLISHED_TO = Date.parse('2026-11-01T00:00:00Z');

/**
 * Draws ranks 0…n-1 with probability proportional to 1 / (rank + 1 + shift)^s (Zipf–Mandelbrot).
 * @param {number} n
 * @param {number} s
 * @param {number} [shift]
 * @returns {(r: () => number) => number}
 */
function zipf(n, s, shift = 0) {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += 1 / Math.pow(i + 1 + shift, s);
    cumulative[i] = sum;
  }
  return (r) => {
    const x = r() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** The vocabulary in rank order: function words, content words, then generated words. */
function vocabulary() {
  const words = [...FUNCTION_WORDS, ...CONTENT_WORDS];
  const seen = new Set(words);
  const r = random(7);
  while (words.length < VOCABULARY_SIZE) {
    let w = '';
    const n = 2 + Math.floor(r() * 3);
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
}

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const ID_SPACE = 2 ** 40;

/**
 * A record id of InvenioRDM's form (8 Crockford base32 characters and a mod 97-10 check) for the
 * n-th number of a space: a bijection, so ids never collide and every run has the same ones.
 * @param {number} n below 2^39
 * @param {0 | 1} space records or parents
 */
export function benchId(n, space) {
  const v = BigInt((n * 0x9e3779b1 + space * 2 ** 39 + 12_345) % ID_SPACE);
  let body = '';
  let rest = v;
  for (let i = 0; i < 8; i++) {
    body = ALPHABET[Number(rest & 31n)] + body;
    rest >>= 5n;
  }
  const check = (98n - ((v * 100n) % 97n)).toString().padStart(2, '0');
  return `${body.slice(0, 5)}-${body.slice(5)}${check}`;
}

/** What the queries of the benchmark search for, from the same vocabulary. */
export const QUERY_WORDS = {
  /** The most frequent content words: in most records. */
  common: CONTENT_WORDS.slice(0, 5),
  /** Pairs of frequent words, each in a few percent of the records. */
  pairs: [
    ['climate', 'temperature'],
    ['ocean', 'samples'],
    ['soil', 'network'],
    ['species', 'growth'],
    ['energy', 'dynamics'],
  ],
  phrases: PHRASES.slice(0, 5),
  /** Words searched in the title only. */
  titleWords: CONTENT_WORDS.slice(20, 25),
  ranges: ['[2000 TO 2005]', '[1994 TO 1999]', '[2008 TO 2013]'],
};

/**
 * @param {{count: number, ownerId: number, communityIds: string[], seed?: number, batch?: number}} options
 * @returns {Generator<BulkRecord[]>} the records in batches, oldest publish first
 */
export function* generateRecords(options) {
  const { count, ownerId, communityIds } = options;
  const batchSize = options.batch ?? 2_000;
  const r = random(options.seed ?? 1);
  const pick = (/** @type {readonly any[]} */ list) => list[Math.floor(r() * list.length)];
  const words = vocabulary();
  const word = zipf(words.length, 1.0, 1.5);
  const phrase = zipf(PHRASES.length, 1.1);
  const subject = zipf(SUBJECTS, 0.9);
  const language = zipf(LANGUAGES.length, 1.6);
  const type = zipf(RESOURCE_TYPES.length, 1.2);
  const community = zipf(communityIds.length, 0.8);
  const fileType = zipf(FILE_TYPES.length, 0.8);
  const creators = zipf(20, 1.3);
  const yearWeights = Array.from({ length: YEARS }, (_, i) => Math.pow(1.08, i));
  const yearTotal = yearWeights.reduce((a, b) => a + b, 0);

  /** @param {number} n */
  const text = (n) => {
    const out = [];
    while (out.length < n) {
      if (r() < PHRASE_SHARE) out.push(...(PHRASES[phrase(r)] ?? '').split(' '));
      else out.push(words[word(r)]);
    }
    return out.join(' ');
  };
  const capitalised = (/** @type {string} */ s) => s.charAt(0).toUpperCase() + s.slice(1);
  const family = () => {
    const n = 2 + Math.floor(r() * 2);
    let f = '';
    for (let i = 0; i < n; i++) f += pick(FAMILY_SYLLABLES);
    return capitalised(f);
  };
  const year = () => {
    let x = r() * yearTotal;
    for (let i = 0; i < YEARS; i++) {
      x -= yearWeights[i] ?? 0;
      if (x <= 0) return FIRST_YEAR + i;
    }
    return FIRST_YEAR + YEARS - 1;
  };
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  const hex = (/** @type {number} */ length) => {
    let s = '';
    for (let i = 0; i < length; i++) s += Math.floor(r() * 16).toString(16);
    return s;
  };

  let batch = [];
  for (let n = 0; n < count; n++) {
    const id = benchId(n, 0);
    const y = year();
    const shape = r();
    const publicationDate =
      shape < 0.8
        ? `${y}-${two(1 + Math.floor(r() * 12))}-${two(1 + Math.floor(r() * 28))}`
        : shape < 0.95
          ? `${y}-${two(1 + Math.floor(r() * 12))}`
          : String(y);
    const people = Array.from({ length: 1 + creators(r) }, () => {
      const given = pick(GIVEN);
      const familyName = family();
      const affiliations = Array.from({ length: Math.floor(r() * 3) }, () => ({
        name: `${pick(ORG_KIND)} of ${pick(ORG_TOPIC)} ${pick(CITIES)}`,
      }));
      return {
        person_or_org: {
          type: 'personal',
          given_name: given,
          family_name: familyName,
          name: `${familyName}, ${given}`,
          ...(r() < 0.4
            ? { identifiers: [{ scheme: 'orcid', identifier: orcid(Math.floor(r() * 1e7)) }] }
            : {}),
        },
        ...(affiliations.length > 0 ? { affiliations } : {}),
      };
    });
    const subjects = [
      ...new Set(Array.from({ length: Math.floor(r() * 6) }, () => subject(r))),
    ].map((s) => ({
      // Distinct pairs of content words: the first by s, the second shifted by s's hundreds.
      subject: `${capitalised(CONTENT_WORDS[s % CONTENT_WORDS.length] ?? '')} ${CONTENT_WORDS[((s % CONTENT_WORDS.length) + 1 + Math.floor(s / CONTENT_WORDS.length)) % CONTENT_WORDS.length]}`,
    }));
    const langShape = r();
    const languages =
      langShape < 0.1
        ? []
        : [
            ...new Set(
              Array.from({ length: langShape < 0.95 ? 1 : 2 }, () => LANGUAGES[language(r)]),
            ),
          ].map((l) => ({ id: l }));
    const fileShape = r();
    const fileCount = fileShape < 0.12 ? 0 : Math.min(10, 1 + Math.floor(-Math.log(r()) * 2));
    /** @type {Record<string, any>} */
    const entries = {};
    let totalBytes = 0;
    for (let i = 0; i < fileCount; i++) {
      const [ext, mimetype] = FILE_TYPES[fileType(r)] ?? ['bin', 'application/octet-stream'];
      const key = `${pick(CONTENT_WORDS)}_${i + 1}.${ext}`;
      const size = Math.floor(Math.exp(8 + r() * 14));
      totalBytes += size;
      entries[key] = {
        id: `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`,
        key,
        size,
        checksum: `md5:${hex(32)}`,
        mimetype,
        ext,
        storage_class: 'L',
        metadata: {},
        access: { hidden: false },
        status: 'completed',
      };
    }
    const accessShape = r();
    const embargoed = fileCount > 0 && accessShape < 0.03;
    const access = {
      record: accessShape > 0.95 ? 'restricted' : 'public',
      files: embargoed || (fileCount > 0 && accessShape > 0.88) ? 'restricted' : 'public',
      embargo: embargoed
        ? { active: true, until: `${2027 + Math.floor(r() * 3)}-06-30`, reason: 'Publication' }
        : { active: false },
    };
    const communityShape = r();
    const inCommunities =
      communityShape < 0.4 ? 0 : communityShape < 0.85 ? 1 : communityShape < 0.97 ? 2 : 3;
    const communities = [
      ...new Set(Array.from({ length: inCommunities }, () => communityIds[community(r)] ?? '')),
    ];
    const publishedAt = new Date(
      PUBLISHED_FROM + ((PUBLISHED_TO - PUBLISHED_FROM) * (n + r())) / count,
    ).toISOString();
    batch.push({
      id,
      parentId: benchId(n, 1),
      ownerId,
      publishedAt,
      data: /** @type {any} */ ({
        metadata: {
          resource_type: { id: RESOURCE_TYPES[type(r)] },
          title: capitalised(text(6 + Math.floor(r() * 10))),
          publication_date: publicationDate,
          creators: people,
          description: `<p>${capitalised(text(30 + Math.floor(-Math.log(r()) * 70)))}.</p>`,
          publisher: 'Cairn',
          rights: [{ id: 'cc-by-4.0' }],
          ...(subjects.length > 0 ? { subjects } : {}),
          ...(languages.length > 0 ? { languages } : {}),
        },
        custom_fields: {},
        access,
        files: { enabled: fileCount > 0 },
        pids: { doi: { identifier: `10.5281/zenodo.${7_000_000 + n}`, provider: 'external' } },
      }),
      parentData: {
        access: {
          owned_by: { user: String(ownerId) },
          settings: {
            allow_user_requests: false,
            allow_guest_requests: false,
            accept_conditions_text: null,
            secret_link_expiration: 0,
          },
          grants: [],
          links: [],
        },
        communities: communities.length > 0 ? { ids: communities, default: communities[0] } : {},
        pids: {},
      },
      filesSummary:
        fileCount > 0
          ? {
              entries,
              count: fileCount,
              total_bytes: totalBytes,
              pending: 0,
              reserved_bytes: 0,
              // The file types the search's facet counts (the summary's `types`).
              types: Object.values(entries).reduce(
                (types, e) => ({ ...types, [e.ext]: (types[e.ext] ?? 0) + 1 }),
                /** @type {Record<string, number>} */ ({}),
              ),
            }
          : null,
    });
    if (batch.length === batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
