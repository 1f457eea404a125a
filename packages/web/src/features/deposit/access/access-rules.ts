import type { Access } from '@cairn/shared';

/** The grace-period settings (InvenioRDM's RDM_RECORDS_RESTRICTION_GRACE_PERIOD). */
export interface GracePeriodConfig {
  /** Days after creation during which a published record may still become restricted. */
  days: number;
  /** When true, a published record may become restricted at any time. */
  allowAfterGrace: boolean;
}

/** InvenioRDM's defaults. */
export const DEFAULT_GRACE_PERIOD: GracePeriodConfig = Object.freeze({
  days: 30,
  allowAfterGrace: false,
});

/** The case of the panel's message box, as InvenioRDM picks it: first matching rule wins. */
export type AccessStatusMessage =
  | 'public'
  | 'publicMetadataOnly'
  | 'embargoed'
  | 'restricted'
  | 'restrictedFiles'
  | 'embargoedFiles';

export function accessStatusMessage(
  access: Access,
  {
    filesEnabled,
    isCommunityRestricted,
  }: { filesEnabled: boolean; isCommunityRestricted: boolean },
): AccessStatusMessage {
  const embargoActive = access.embargo.active;
  if (!isCommunityRestricted && access.record === 'public') {
    if (!filesEnabled) return 'publicMetadataOnly';
    if (access.files === 'public') return 'public';
  }
  if (access.record === 'restricted' && embargoActive && !isCommunityRestricted) return 'embargoed';
  if (isCommunityRestricted || access.record === 'restricted') return 'restricted';
  return embargoActive ? 'embargoedFiles' : 'restrictedFiles';
}

/**
 * An embargo may be applied only for a public community and when the record, or its files (when it
 * has any), are restricted: an embargo lifts a restriction.
 */
export function canApplyEmbargo(
  access: Access,
  {
    filesEnabled,
    isCommunityRestricted,
  }: { filesEnabled: boolean; isCommunityRestricted: boolean },
): boolean {
  if (isCommunityRestricted) return false;
  return access.record === 'restricted' || (filesEnabled && access.files === 'restricted');
}

/** An embargo that was lifted: inactive, with an end date that is not in the future. */
export function isEmbargoLifted(access: Access, today: string): boolean {
  const until = access.embargo.until;
  return !access.embargo.active && until !== undefined && until !== '' && until <= today;
}
