/**
 * Draft bodies for the API benchmark: what a depositor would send, deterministic so that runs
 * compare. Both are valid as sent; the benchmark checks that the server reports no errors for them,
 * since a draft with dropped parts would be cheaper to save and flatter the figures.
 */

// prettier-ignore
const GIVEN_NAMES = [
  'Ada', 'Grace', 'Alan', 'Katherine', 'Tim', 'Barbara', 'Edsger', 'Frances', 'Donald', 'Radia',
  'Ken', 'Margaret', 'Dennis', 'Hedy', 'John', 'Sophie', 'Linus', 'Annie', 'Niklaus', 'Karen',
  'Guido', 'Jean', 'Bjarne', 'Shafi', 'Leslie', 'Lynn', 'Tony', 'Mary', 'Robin', 'Joan',
  'Sigrún', 'Jón', 'Ólafur', 'Zoë', 'Łukasz', 'Żaneta', 'Chloé', 'José', 'Müge', 'Nguyễn',
];

// prettier-ignore
const FAMILY_NAMES = [
  'Lovelace', 'Hopper', 'Turing', 'Johnson', 'Berners-Lee', 'Liskov', 'Dijkstra', 'Allen',
  'Knuth', 'Perlman', 'Thompson', 'Hamilton', 'Ritchie', 'Lamarr', 'McCarthy', 'Wilson',
  'Torvalds', 'Easley', 'Wirth', 'Spärck Jones', 'van Rossum', 'Sammet', 'Stroustrup',
  'Goldwasser', 'Lamport', 'Conway', 'Hoare', 'Keller', 'Milner', 'Clarke', 'Sigurðardóttir',
  'Guðmundsson', 'Ólafsson', 'Kowalski', 'Nowak', 'Müller', 'Dubois', 'García', 'Yılmaz',
  'Tanaka', 'Okafor', 'Haddad', 'Ivanova', 'Rossi', 'Jensen', 'Novák', 'Papadopoulos',
  "O'Brien", 'de la Cruz', 'Nakamura',
];

const AFFILIATIONS = [
  'University of Iceland',
  'Icelandic Meteorological Office',
  'ETH Zürich',
  'Alfred Wegener Institute for Polar and Marine Research',
  'British Antarctic Survey',
  'Université Grenoble Alpes',
  'University of Copenhagen',
  'Norwegian Polar Institute',
  'CERN',
  'Cairn Institute',
  'National Snow and Ice Data Center',
  'Scott Polar Research Institute, University of Cambridge',
];

// ORCID hands out ISNIs from 0000-0001-5000-0007 to 0000-0003-5000-0001; 2,000 iDs this far apart
// stay inside that block, which the server checks as well as the check character.
const ORCID_BLOCK_START = 15_000_000;
const ORCID_STRIDE = 9_973;

/**
 * The check character of a 15-digit ISNI or ORCID base: ISO 7064 MOD 11-2.
 * @param {string} digits exactly 15 decimal digits
 * @returns {string} `0`–`9` or `X`
 */
export function isoMod112CheckCharacter(digits) {
  let total = 0;
  for (const digit of digits) total = (total + Number(digit)) * 2;
  const check = (12 - (total % 11)) % 11;
  return check === 10 ? 'X' : String(check);
}

/**
 * The n-th ORCID iD of the benchmark: distinct for n < 2,000 and valid (block and check digit).
 * @param {number} n
 */
export function benchOrcid(n) {
  const base = String(ORCID_BLOCK_START + n * ORCID_STRIDE).padStart(15, '0');
  const full = base + isoMod112CheckCharacter(base);
  return `${full.slice(0, 4)}-${full.slice(4, 8)}-${full.slice(8, 12)}-${full.slice(12)}`;
}

/**
 * @param {number} n
 * @param {number} affiliationCount
 * @param {boolean} hasOrcid
 */
function person(n, affiliationCount, hasOrcid) {
  return {
    person_or_org: {
      type: 'personal',
      given_name: GIVEN_NAMES[n % GIVEN_NAMES.length],
      // A multiplier prime to the list length so neighbours do not share family names.
      family_name: FAMILY_NAMES[(n * 7) % FAMILY_NAMES.length],
      ...(hasOrcid ? { identifiers: [{ scheme: 'orcid', identifier: benchOrcid(n) }] } : {}),
    },
    affiliations: Array.from({ length: affiliationCount }, (_, k) => ({
      name: AFFILIATIONS[(n + k * 5) % AFFILIATIONS.length],
    })),
  };
}

/**
 * @param {string} title
 * @param {ReturnType<typeof person>[]} creators
 */
function draft(title, creators) {
  return {
    metadata: {
      title,
      resource_type: { id: 'dataset' },
      publication_date: '2024-03-18',
      publisher: 'Cairn',
      creators,
      description:
        '<p>Major-ion and stable-isotope measurements of meltwater sampled weekly at three outlet ' +
        'glaciers of Vatnajökull, Iceland, during the melt seasons 2019 to 2023. Samples were ' +
        'filtered in the field, kept at 4 °C and analysed within two weeks by ion chromatography ' +
        'and cavity ring-down spectroscopy.</p><p>The archive holds one CSV file per glacier and ' +
        'season and a README describing columns, units and detection limits.</p>',
      subjects: [
        { subject: 'glaciology' },
        { subject: 'hydrochemistry' },
        { subject: 'stable isotopes' },
        { subject: 'Iceland' },
      ],
      rights: [{ id: 'cc-by-4.0' }],
      languages: [{ id: 'eng' }],
      version: '1.0',
    },
    access: { record: 'public', files: 'public' },
    files: { enabled: false },
  };
}

/** A draft as a small team deposits it: five creators, most with ORCID and affiliations. */
export function realisticDraft() {
  return draft('Glacier meltwater chemistry, Vatnajökull 2019–2023', [
    person(0, 1, true),
    person(1, 2, true),
    person(2, 1, false),
    person(3, 1, true),
    person(4, 2, true),
  ]);
}

/**
 * A draft of a large consortium: `count` persons, every third with an ORCID iD, each with one or
 * two affiliations by name.
 * @param {number} count
 */
export function consortiumDraft(count) {
  return draft(
    'Greenland ice-core consortium: joint measurements of the 2018–2024 drilling seasons',
    Array.from({ length: count }, (_, n) => person(n, 1 + (n % 2), n % 3 === 0)),
  );
}
