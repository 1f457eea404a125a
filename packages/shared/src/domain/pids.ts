import { z } from 'zod';

/** PID schemes a record may carry (InvenioRDM's defaults). */
export const PID_SCHEMES = Object.freeze(['doi', 'oai'] as const);

/** A record PID scheme. */
export type PidScheme = (typeof PID_SCHEMES)[number];

/**
 * One persistent identifier of the record. `provider` `external` means the depositor brought the
 * identifier (Cairn does not register it); any other provider is managed by Cairn. An external DOI
 * being typed may have an empty `identifier`, which blocks publishing.
 */
export const PidSchema = z.object({
  identifier: z.string(),
  provider: z.string().min(1),
  client: z.string().min(1).optional(),
});

/** A persistent identifier with its provider. */
export type Pid = z.infer<typeof PidSchema>;

/** `pids`: scheme → PID, `{}` on new drafts. */
export const PidsSchema = z.record(z.string(), PidSchema);

/** The record's persistent identifiers by scheme. */
export type Pids = z.infer<typeof PidsSchema>;

/** The provider name meaning "the depositor's own identifier, not registered by Cairn". */
export const EXTERNAL_PID_PROVIDER = 'external';
