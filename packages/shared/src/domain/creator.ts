import { z } from 'zod';
import { IdentifierEntrySchema } from './identifier-entry.js';
import { VocabularyRefSchema } from './vocabulary.js';
import { MESSAGES } from '../validation/messages.js';

/** The two kinds of creator InvenioRDM knows. */
export const PersonOrOrgTypeSchema = z.enum(['personal', 'organizational'], {
  error: MESSAGES.personOrOrgType,
});

/** `personal` or `organizational`. */
export type PersonOrOrgType = z.infer<typeof PersonOrOrgTypeSchema>;

/**
 * Who a creator or contributor is, as a draft stores it. Every key is optional because a draft keeps
 * what the user typed even before it is complete; `validateForPublish` demands the type and the
 * family name (person) or name (organisation). For persons with a family name `name` is computed
 * ("Family, Given"); a person without one keeps the `name` it was sent with.
 */
export const PersonOrOrgSchema = z.object({
  type: PersonOrOrgTypeSchema.optional(),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  identifiers: z.array(IdentifierEntrySchema).optional(),
});

/** A person or organisation. */
export type PersonOrOrg = z.infer<typeof PersonOrOrgSchema>;

/** An affiliation: a vocabulary entry by `id` (ROR-backed) or a free-text `name`, never both. */
export const AffiliationSchema = z
  .object({ id: z.string().min(1).optional(), name: z.string().min(1).optional() })
  .refine(
    (value) => (value.id === undefined) !== (value.name === undefined),
    MESSAGES.affiliationIdOrName,
  );

/** An affiliation by id or by name. */
export type Affiliation = z.infer<typeof AffiliationSchema>;

/**
 * A creator or contributor. `role` is optional for creators and required (at publish) for
 * contributors; the shape is the same.
 */
export const CreatorSchema = z.object({
  person_or_org: PersonOrOrgSchema.optional(),
  role: VocabularyRefSchema.optional(),
  affiliations: z.array(AffiliationSchema).optional(),
});

/** A creator or contributor. */
export type Creator = z.infer<typeof CreatorSchema>;
