import { useTranslation } from 'react-i18next';
import { IdentifierInputs } from './IdentifierInputs';
import { RepeatableField } from './RepeatableField';

/** `metadata.identifiers`: other identifiers of this record (scheme and identifier). */
export function IdentifiersField() {
  const { t } = useTranslation();
  return (
    <RepeatableField
      name="metadata.identifiers"
      legend={t('metadata.identifiers.legend')}
      addLabel={t('metadata.identifiers.add')}
      newRow={() => ({ identifier: '', scheme: '' })}
      rowLabel={(n) => t('metadata.identifiers.row', { n })}
      renderRow={(index) => <IdentifierInputs path={`metadata.identifiers.${index}`} />}
    />
  );
}
