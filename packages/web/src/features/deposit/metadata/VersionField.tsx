import { MetadataSchema, VERSION_MAX_LENGTH } from '@cairn/shared';
import { useTranslation } from 'react-i18next';
import { MetadataTextField } from './MetadataTextField';

/** `metadata.version`: free text up to the shared maximum length, checked on blur. */
export function VersionField() {
  const { t } = useTranslation();
  return (
    <MetadataTextField
      name="metadata.version"
      label={t('metadata.version.label')}
      help={t('metadata.version.help', { max: VERSION_MAX_LENGTH })}
      placeholder="v1.0.0"
      schema={MetadataSchema.shape.version}
    />
  );
}
