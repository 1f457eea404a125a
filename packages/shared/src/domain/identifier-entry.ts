import { z } from 'zod';
import {
  IDENTIFIER_SCHEME_LABELS,
  isValidIdentifier,
  type IdentifierScheme,
} from './identifiers.js';
import { invalidIdentifierMessage } from '../validation/messages.js';

const SCHEMES = Object.keys(IDENTIFIER_SCHEME_LABELS) as [IdentifierScheme, ...IdentifierScheme[]];

/**
 * `{scheme, identifier}` as stored: the scheme is always present (detected when the client left it
 * out) and the identifier is valid for it and normalised. Which schemes a given list accepts is
 * narrower (creators: ORCID, ISNI, GND, ROR); `loadRecord` enforces that per field.
 */
export const IdentifierEntrySchema = z
  .object({ scheme: z.enum(SCHEMES), identifier: z.string().min(1) })
  .superRefine((entry, ctx) => {
    if (!isValidIdentifier(entry.scheme, entry.identifier)) {
      ctx.addIssue({
        code: 'custom',
        path: ['identifier'],
        message: invalidIdentifierMessage(IDENTIFIER_SCHEME_LABELS[entry.scheme]),
      });
    }
  });

/** A typed, validated identifier. */
export type IdentifierEntry = z.infer<typeof IdentifierEntrySchema>;
