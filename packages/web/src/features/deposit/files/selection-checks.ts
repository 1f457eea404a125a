import { planTransfer, type TransferPlan } from '@cairn/shared';
import { nfcKey, sameKey, type FileEntry } from './uploader-state';

/**
 * The key a chosen file is stored under: its path inside the folder chosen (the input's
 * `webkitRelativePath`) or dropped (file-selector's `relativePath`, "./survey/a.csv"), so a
 * folder keeps its structure, else its name.
 */
export function uploadKey(file: File): string {
  const relative = file.webkitRelativePath || (file as { relativePath?: string }).relativePath;
  const path = (relative ?? '').replace(/^\.?\//, '');
  return path || file.name;
}

export interface Quota {
  maxFiles: number;
  maxStorage: number;
}

/** One warning about a selection, as translation keys and values; the component words it. */
export type SelectionWarning =
  | { kind: 'too-many-files'; count: number; max: number }
  | { kind: 'storage-exceeded'; total: number; limit: number }
  | { kind: 'duplicates'; names: string[] }
  | { kind: 'empty-skipped'; names: string[] }
  | { kind: 'unsupported-transfer'; files: Array<{ name: string; type: string }> }
  | { kind: 'too-large'; names: string[]; limit: number }
  /** Accepted, but the same but for case as another: one would overwrite the other on a case-insensitive disk. */
  | { kind: 'case-collision'; pairs: Array<[string, string]> };

export interface AcceptedFile {
  file: File;
  /** Where it is stored in the record: its path inside a chosen or dropped folder, else its name. */
  key: string;
  plan: Extract<TransferPlan, { type: 'L' | 'M' }>;
  /** The interrupted or failed entry of the same name it replaces or resumes. */
  replaces?: FileEntry;
}

export interface SelectionOutcome {
  accepted: AcceptedFile[];
  warnings: SelectionWarning[];
}

export interface SelectionRules {
  quota: Quota;
  allowEmptyFiles: boolean;
  enabledTransferTypes: readonly string[];
}

/**
 * The client checks of InvenioRDM's uploader, in its order: too many files or too much storage
 * refuses the whole selection; then files already present (same NFC name, not failed or
 * interrupted) are skipped, empty files are skipped when empty files are not allowed, and files
 * whose transfer type is not enabled are rejected. The rest are accepted.
 */
export function checkSelection(
  entries: readonly FileEntry[],
  selected: readonly File[],
  rules: SelectionRules,
): SelectionOutcome {
  // Looked up by NFC name: ten thousand files chosen beside ten thousand entries, compared pair
  // by pair, took seconds before anything was sent.
  const replaceable = new Map<string, FileEntry>();
  const presentKeys = new Set<string>();
  for (const e of entries) {
    if (e.status === 'failed' || e.interrupted) {
      if (!replaceable.has(nfcKey(e.key))) replaceable.set(nfcKey(e.key), e);
    } else presentKeys.add(nfcKey(e.key));
  }
  // A failed or interrupted entry of the same name is replaced by the new file, not counted twice.
  const replaced = (name: string) => replaceable.get(nfcKey(name));
  const present = (name: string) => presentKeys.has(nfcKey(name));
  const replacedEntries = new Set(selected.map((f) => replaced(uploadKey(f))));
  const staying = entries.filter((e) => !replacedEntries.has(e));

  const count = staying.length + selected.length;
  if (count > rules.quota.maxFiles) {
    return {
      accepted: [],
      warnings: [{ kind: 'too-many-files', count, max: rules.quota.maxFiles }],
    };
  }
  const total =
    staying.reduce((sum, e) => sum + e.size, 0) + selected.reduce((sum, f) => sum + f.size, 0);
  if (total > rules.quota.maxStorage) {
    return {
      accepted: [],
      warnings: [{ kind: 'storage-exceeded', total, limit: rules.quota.maxStorage }],
    };
  }

  const duplicates: string[] = [];
  const empty: string[] = [];
  const unsupported: Array<{ name: string; type: string }> = [];
  const tooLarge: string[] = [];
  let limit = 0;
  const accepted: AcceptedFile[] = [];
  const seen = new Set<string>();
  for (const file of selected) {
    const key = uploadKey(file);
    if (present(key) || seen.has(nfcKey(key))) {
      duplicates.push(key);
      continue;
    }
    seen.add(nfcKey(key));
    if (file.size === 0 && !rules.allowEmptyFiles) {
      empty.push(key);
      continue;
    }
    const plan = planTransfer(file.size, rules.enabledTransferTypes.includes('M'));
    if (plan.type === 'too-large') {
      tooLarge.push(key);
      limit = plan.maxSize;
      continue;
    }
    if (!rules.enabledTransferTypes.includes(plan.type)) {
      unsupported.push({ name: key, type: plan.type });
      continue;
    }
    const replaces = replaced(key);
    accepted.push({ file, key, plan, ...(replaces ? { replaces } : {}) });
  }
  const warnings: SelectionWarning[] = [];
  const pairs = caseCollisions(
    accepted.map((a) => a.key),
    staying.map((e) => e.key),
  );
  if (duplicates.length > 0) warnings.push({ kind: 'duplicates', names: duplicates });
  if (empty.length > 0) warnings.push({ kind: 'empty-skipped', names: empty });
  if (unsupported.length > 0) warnings.push({ kind: 'unsupported-transfer', files: unsupported });
  if (tooLarge.length > 0) warnings.push({ kind: 'too-large', names: tooLarge, limit });
  if (pairs.length > 0) warnings.push({ kind: 'case-collision', pairs });
  return { accepted, warnings };
}

/** Each new key that equals another (new or already there) but for case, with that other. */
function caseCollisions(added: string[], present: string[]): Array<[string, string]> {
  const folded = (key: string) => key.normalize('NFC').toLowerCase();
  const seen = new Map(present.map((key) => [folded(key), key]));
  const pairs: Array<[string, string]> = [];
  for (const key of added) {
    const other = seen.get(folded(key));
    if (other !== undefined && !sameKey(other, key)) pairs.push([other, key]);
    else seen.set(folded(key), key);
  }
  return pairs;
}
