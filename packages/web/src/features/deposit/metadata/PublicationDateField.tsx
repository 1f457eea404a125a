import { MetadataSchema } from '@cairn/shared';
import { useTranslation } from 'react-i18next';
import { MetadataTextField } from './MetadataTextField';

/**
 * `metadata.publication_date`: an EDTF date or interval. Marked required, since publishing needs it
 * (InvenioRDM shows no marker), and checked as soon as the field is left.
 */
export function PublicationDateField() {
  const { t } = useTranslation();
  return (
    <MetadataTextField
      name="metadata.publication_date"
      label={t('metadata.publicationDate.label')}
      placeholder={t('metadata.publicationDate.placeholder')}
      help={t('metadata.publicationDate.help')}
      schema={MetadataSchema.shape.publication_date}
      required
    />
  );
}
