import { z } from 'zod';
import { isIsoDay } from './edtf.js';
import { MESSAGES } from '../validation/messages.js';

/** Who may see the record or its files. */
export const AccessLevelSchema = z.enum(['public', 'restricted']);

/** `public` or `restricted`. */
export type AccessLevel = z.infer<typeof AccessLevelSchema>;

/**
 * An embargo: while `active`, access is restricted until `until` (a `YYYY-MM-DD` day), when a
 * periodic task lifts it. `reason` is shown to visitors. Whether `until` lies in the future depends
 * on the day, so that rule lives in `loadRecord` (which is given `today`), not here.
 */
export const EmbargoSchema = z.object({
  active: z.boolean(),
  until: z.string().refine(isIsoDay, MESSAGES.invalidDate).optional(),
  reason: z.string().optional(),
});

/** An embargo. */
export type Embargo = z.infer<typeof EmbargoSchema>;

/** `access` of a draft or record as InvenioRDM shapes it, without the computed `status`. */
export const AccessSchema = z.object({
  record: AccessLevelSchema,
  files: AccessLevelSchema,
  embargo: EmbargoSchema,
});

/** Record and files access with the embargo. */
export type Access = z.infer<typeof AccessSchema>;

/** The computed `access.status` shown on records and used as a search facet. */
export type AccessStatus = 'open' | 'embargoed' | 'restricted' | 'metadata-only';

/** Access of a new record: everything public, no embargo. */
export const DEFAULT_ACCESS: Readonly<Access> = Object.freeze({
  record: 'public',
  files: 'public',
  embargo: Object.freeze({ active: false }),
});

/**
 * `access.status` as InvenioRDM computes it: an active embargo → `embargoed`; else a public record
 * without files → `metadata-only`; else record and files public → `open`; else `restricted`.
 */
export function computeAccessStatus(access: Access, filesEnabled: boolean): AccessStatus {
  if (access.embargo.active) return 'embargoed';
  if (access.record === 'public' && !filesEnabled) return 'metadata-only';
  if (access.record === 'public' && access.files === 'public') return 'open';
  return 'restricted';
}
