import { useTranslation } from 'react-i18next';
import { MetadataTextField } from './MetadataTextField';

/** `metadata.publisher`: needed by DataCite when a DOI is registered. */
export function PublisherField() {
  const { t } = useTranslation();
  return (
    <MetadataTextField
      name="metadata.publisher"
      label={t('metadata.publisher.label')}
      help={t('metadata.publisher.help')}
    />
  );
}
