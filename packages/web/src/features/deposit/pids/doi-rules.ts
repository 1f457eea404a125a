import {
  EXTERNAL_PID_PROVIDER,
  isManagedProvider,
  type DoiTransition,
  type PidFormValues,
} from '@cairn/shared';

/** The answer to "Do you already have a DOI for this upload?". */
export type DoiChoice = 'yes' | 'no' | 'not_needed';

/** The DOI settings of the instance (InvenioRDM's `pids` form config). */
export interface DoiConfig {
  /** `is_doi_required`: every record gets a DOI; "No, I don't need one" is not offered. */
  required: boolean;
  /** Cairn may reserve and register the DOI (managed). */
  canBeManaged: boolean;
  /** The depositor may bring their own DOI (unmanaged, provider `external`). */
  canBeUnmanaged: boolean;
  /** The answer preselected on a new upload. */
  defaultSelected: DoiChoice;
}

export const DEFAULT_DOI_CONFIG: DoiConfig = Object.freeze({
  required: false,
  canBeManaged: true,
  canBeUnmanaged: true,
  defaultSelected: 'not_needed',
});

/** A managed DOI has been reserved (any provider but `external` and `not_needed`). */
export function isManagedDoi(doi: PidFormValues | undefined): boolean {
  return doi !== undefined && doi.identifier !== '' && isManagedProvider(doi.provider);
}

/** The answer a stored DOI stands for, else the configured default that the rules allow. */
export function initialDoiChoice(
  doi: PidFormValues | undefined,
  config: DoiConfig,
  isRequired: boolean,
): DoiChoice {
  if (doi?.provider === EXTERNAL_PID_PROVIDER) return 'yes';
  if (isManagedDoi(doi)) return 'no';
  if (!config.canBeManaged) return 'yes';
  if (!config.canBeUnmanaged) return 'no';
  if (isRequired && config.defaultSelected === 'not_needed') return 'no';
  return config.defaultSelected;
}

/**
 * The optional-DOI transitions between versions (InvenioRDM's rule, which API clients rely on), from the DOI of the
 * version a new version follows: after one with a DOI registered here, only a managed DOI is
 * allowed; after one with an external DOI or none, a managed one is not.
 */
export function allowedDoiChoices(
  transition: DoiTransition | null | undefined,
):
  | { allowed: readonly DoiChoice[]; message: 'transitionManaged' | 'transitionExternal' }
  | undefined {
  if (transition === 'managed') return { allowed: ['no'], message: 'transitionManaged' };
  if (transition === 'unmanaged')
    return { allowed: ['yes', 'not_needed'], message: 'transitionExternal' };
  return undefined;
}
