import crypto from 'node:crypto';

// InvenioRDM ids: 8 lower-case Crockford base32 characters plus a 2-digit ISO 7064 mod 97-10
// checksum, split 5+5 (e.g. "ha4g3-7x208"). Same alphabet and checksum so ids look and verify alike.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

function checksum(n: bigint): bigint {
  return 98n - ((n * 100n) % 97n);
}

/** A fresh random record or parent id in InvenioRDM's `xxxxx-xxxxx` form. */
export function newRecordId(): string {
  const n = crypto.randomBytes(5).reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
  let body = '';
  let v = n;
  for (let i = 0; i < 8; i++) {
    body = ALPHABET[Number(v & 31n)]! + body;
    v >>= 5n;
  }
  const id = body + checksum(n).toString().padStart(2, '0');
  return `${id.slice(0, 5)}-${id.slice(5)}`;
}

/** True when the id has the form and a correct checksum; anything else cannot exist. */
export function isRecordId(id: string): boolean {
  const m = /^([0-9a-hjkmnp-tv-z]{5})-([0-9a-hjkmnp-tv-z]{3})(\d{2})$/.exec(id);
  if (!m) return false;
  let n = 0n;
  for (const ch of m[1]! + m[2]!) n = (n << 5n) | BigInt(ALPHABET.indexOf(ch));
  return checksum(n) === BigInt(m[3]!);
}

/**
 * A record's OAI-PMH identifier. The OAI identifier scheme takes a domain name, so the site's
 * host name without its port: `oai:repo.example.org:ha4g3-7x208`.
 */
export function oaiIdentifier(siteUrl: string, id: string): string {
  return `${oaiPrefix(siteUrl)}${id}`;
}

/** The last site's prefix: a process has one site, and every record it presents asks for it. */
let lastPrefix: { siteUrl: string; prefix: string } | undefined;

function oaiPrefix(siteUrl: string): string {
  if (lastPrefix?.siteUrl !== siteUrl)
    lastPrefix = { siteUrl, prefix: `oai:${new URL(siteUrl).hostname}:` };
  return lastPrefix.prefix;
}
