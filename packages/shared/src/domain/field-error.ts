/** How much a field problem matters: only `error` blocks publish and submit-for-review. */
export type Severity = 'error' | 'warning' | 'info';

/**
 * One field's problems as InvenioRDM sends them in `errors`: `field` is a dotted path with numeric
 * list indexes (`metadata.creators.1.person_or_org.family_name`), `messages` holds every message for
 * that path (never split across two items). `severity` and `description` appear only on curation
 * checks; schema errors leave them out, which clients read as `error`.
 */
export interface FieldError {
  field: string;
  messages: string[];
  severity?: Severity;
  description?: string;
}
