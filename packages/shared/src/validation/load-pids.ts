import { normalizeDoi } from '../domain/identifiers.js';
import { EXTERNAL_PID_PROVIDER, PID_SCHEMES, type Pid, type Pids } from '../domain/pids.js';
import { MESSAGES } from './messages.js';
import { isJsonObject, join, prune, readObject, readString, type Reader } from './read.js';

const KNOWN_SCHEMES = new Set<string>(PID_SCHEMES);

function readPid(scheme: string, value: unknown, path: string, r: Reader): Pid | undefined {
  const object = readObject(prune(value), path, r);
  if (object === undefined) return undefined;
  const providerPath = join(path, 'provider');
  if (object.provider === undefined) {
    r.issues.add(providerPath, MESSAGES.required);
    return undefined;
  }
  const provider = readString(object.provider, providerPath, r);
  const identifier = readString(object.identifier, join(path, 'identifier'), r) ?? '';
  const client = readString(object.client, join(path, 'client'), r);
  if (provider === undefined) return undefined;

  const pid: Pid = { identifier, provider };
  if (client !== undefined) pid.client = client;
  if (scheme === 'doi' && provider === EXTERNAL_PID_PROVIDER) {
    // An external DOI is kept even when empty or invalid: the depositor chose "I have a DOI", and
    // dropping it would let publish register a managed DOI they did not ask for.
    if (identifier === '') {
      r.issues.add(path, MESSAGES.missingDoi);
    } else {
      const doi = normalizeDoi(identifier);
      if (doi === undefined) r.issues.add(path, MESSAGES.invalidDoi);
      else pid.identifier = doi;
    }
  }
  return pid;
}

/**
 * Loads `pids`, taken as sent (not pruned): an explicit `{}` means "no PIDs" (the form sends it
 * when the depositor needs no DOI), while an omitted `pids` keeps `previous`. Only `doi` and
 * `oai` are accepted; other schemes are reported on `pids` and dropped. For an external DOI the
 * identifier must be a DOI and is normalised (`https://doi.org/10.1234/x` → `10.1234/x`).
 */
export function readPids(value: unknown, r: Reader, previous: Pids | undefined): Pids {
  if (value === undefined || value === null) return { ...previous };
  if (!isJsonObject(value)) {
    r.issues.add('pids', MESSAGES.invalidInputType);
    return { ...previous };
  }
  const pids: Pids = {};
  for (const scheme of Object.keys(value)) {
    const entry = value[scheme];
    if (prune(entry) === undefined) continue;
    if (!KNOWN_SCHEMES.has(scheme)) {
      r.issues.add('pids', MESSAGES.invalidPidScheme);
      continue;
    }
    const pid = readPid(scheme, entry, join('pids', scheme), r);
    if (pid !== undefined) pids[scheme] = pid;
  }
  return pids;
}
