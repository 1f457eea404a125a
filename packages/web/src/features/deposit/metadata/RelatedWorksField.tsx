import { useTranslation } from 'react-i18next';
import { IdentifierInputs } from './IdentifierInputs';
import { RepeatableField } from './RepeatableField';
import { VocabularySelectField } from './VocabularySelectField';

/**
 * `metadata.related_identifiers`: how another work relates to this one. Relation, identifier and
 * scheme are required; the resource type is optional, and shown so (InvenioRDM marks it required
 * although its server does not).
 */
export function RelatedWorksField() {
  const { t } = useTranslation();
  return (
    <RepeatableField
      name="metadata.related_identifiers"
      legend={t('metadata.relatedWorks.legend')}
      help={t('metadata.relatedWorks.help')}
      addLabel={t('metadata.relatedWorks.add')}
      newRow={() => ({ relation_type: '', identifier: '', scheme: '', resource_type: '' })}
      rowLabel={(n) => t('metadata.relatedWorks.row', { n })}
      renderRow={(index) => (
        <>
          <VocabularySelectField
            name={`metadata.related_identifiers.${index}.relation_type`}
            type="relationtypes"
            label={t('metadata.relatedWorks.relation')}
            placeholder={t('metadata.relatedWorks.relationPlaceholder')}
            required
          />
          <IdentifierInputs path={`metadata.related_identifiers.${index}`} />
          <VocabularySelectField
            name={`metadata.related_identifiers.${index}.resource_type`}
            type="resourcetypes"
            tags="linkable"
            label={t('metadata.relatedWorks.resourceType')}
          />
        </>
      )}
    />
  );
}
