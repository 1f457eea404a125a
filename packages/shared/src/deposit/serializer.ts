import type { DepositFormValues } from './form-values.js';

export { deserializeCreator, deserializeDraft, readRecordInfo } from './deserialize-draft.js';
export { isEmptyPayload, serializeCreator, serializeDraft } from './serialize-draft.js';

/*
 * Form values ⇄ API payload, after InvenioRDM's DepositRecordSerializer. Its rules, numbered here
 * in the order it applies them; a comment's "rule N" is deserialize rule N unless it says
 * otherwise.
 *
 * Deserialize (API → form):
 *   1. only the keys the editor uses are kept (access, metadata, pids, custom_fields, files,
 *      links, status, versions, parent, expanded, ui, review, …); `errors`, `stats` and the
 *      like are dropped;
 *   2. empty values are stripped (rule R), but `pids` is put back as sent when it was not empty;
 *   3. every field gets its default: text `''`, lists `[]`, access public/public, pids `{}`;
 *   4. lists of objects keep only their declared sub-keys (a reference keeps `reference` alone);
 *   5. vocabulary fields collapse `{id, title…}` to the id;
 *   6. vocabularies that allow additions (affiliations, subjects) keep `{id?, name|subject}`;
 *   7. a standard licence is held by its id; a custom one has its title and description
 *      unwrapped from the default locale;
 *   8. funder and award titles are unwrapped, and a `url` identifier becomes `url`;
 *   9. vocabulary custom fields collapse to their ids.
 *
 * Serialize (form → API):
 *   1. only access, metadata, files, pids and custom_fields are sent, never status, versions,
 *      `ui` or the like;
 *   2. `pids` is set aside;
 *   3. every field is turned back: ids to `{id}`, custom titles wrapped by the default locale,
 *      a funding `url` to an `identifiers` entry;
 *   4. empty values are stripped again (rule R);
 *   5. `pids` always goes, `{}` when empty;
 *   6. `metadata` and `custom_fields` are always present.
 *
 * Rule R is `_removeEmptyValues` (remove-empty-values.ts). Deserialize is deserialize-draft.ts,
 * serialize serialize-draft.ts; this file holds the shapes both share.
 */

/** A draft or record as the API returns it; read defensively, every key may be missing. */
export type ApiRecord = Readonly<Record<string, unknown>>;

/** What the serializer needs from the instance configuration. */
export interface SerializerOptions {
  /** Custom-license and custom-funding titles are wrapped as `{[defaultLocale]: text}`. */
  defaultLocale: string;
  /**
   * Custom fields (`journal:journal` style keys, or `group.field` for a field inside a group)
   * whose values are vocabulary references: sent as `{id}`, held by the form as the id.
   */
  vocabularyCustomFields?: readonly string[];
}

/**
 * The parts of a draft the editor reads but never sends (rule 1 of deserialize minus the form's
 * values): links for every action, the status and versions for the buttons, the parent and
 * `expanded` for the community, `ui` for display labels, the revision for `If-Match`.
 */
export interface DraftRecordInfo {
  id?: string;
  links: Readonly<Record<string, string>>;
  status?: string;
  is_published: boolean;
  versions?: Readonly<{ index?: number; is_latest?: boolean; is_latest_draft?: boolean }>;
  parent?: ApiRecord;
  /** `?expand=1` data: the review receiver and default community as full objects. */
  expanded: ApiRecord;
  ui?: ApiRecord;
  /** A new-version draft's own review request (first versions keep it in `parent.review`). */
  review?: ApiRecord;
  revision_id?: number;
  created?: string;
  updated?: string;
  /** The files as the draft lists them (`entries` keyed by file name). */
  files?: ApiRecord;
  media_files?: ApiRecord;
}

export interface DeserializedDraft {
  values: DepositFormValues;
  record: DraftRecordInfo;
}

/** What POST /api/records and PUT {links.self} receive. */
export interface DraftPayload {
  metadata: Record<string, unknown>;
  access: Record<string, unknown>;
  files: Record<string, unknown>;
  pids: Record<string, unknown>;
  custom_fields: Record<string, unknown>;
}
