import {
  IDENTIFIER_SCHEME_LABELS,
  IdentifierEntrySchema,
  RECORD_IDENTIFIER_SCHEMES,
  type DepositFormValues,
} from '@cairn/shared';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SelectField } from '../../../components/form/SelectField';
import { MetadataTextField } from './MetadataTextField';
import { schemaMessage } from './useBlurValidation';

const SCHEME_OPTIONS = RECORD_IDENTIFIER_SCHEMES.map((scheme) => ({
  value: scheme,
  label: IDENTIFIER_SCHEME_LABELS[scheme],
}));

export interface IdentifierInputsProps {
  /** The row holding `identifier` and `scheme`, e.g. `metadata.identifiers.2`. */
  path: `metadata.identifiers.${number}` | `metadata.related_identifiers.${number}`;
}

/**
 * An identifier and its scheme, both required. The identifier is checked against its scheme when
 * the field is left ("Invalid DOI identifier."), not only after a save (InvenioRDM's server guesses
 * the scheme, so a typo shows only then).
 */
export function IdentifierInputs({ path }: IdentifierInputsProps) {
  const { t } = useTranslation();
  const { getValues } = useFormContext<DepositFormValues>();
  return (
    <>
      <MetadataTextField
        name={`${path}.identifier`}
        label={t('metadata.identifiers.identifier')}
        required
        check={(identifier) => {
          const scheme = getValues(`${path}.scheme`);
          return scheme ? schemaMessage(IdentifierEntrySchema, { scheme, identifier }) : undefined;
        }}
      />
      <SelectField<DepositFormValues>
        name={`${path}.scheme`}
        label={t('metadata.identifiers.scheme')}
        options={SCHEME_OPTIONS}
        searchable
        required
      />
    </>
  );
}
