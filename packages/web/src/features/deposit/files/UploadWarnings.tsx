import { Alert, List, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../../lib/format-bytes';
import type { SelectionWarning } from './selection-checks';

interface Wording {
  title: string;
  text?: string;
  items: string[];
}

/** Each warning as a heading, an optional sentence and a list (InvenioRDM's wordings). */
function wordingOf(warning: SelectionWarning, t: TFunction, size: (n: number) => string): Wording {
  switch (warning.kind) {
    case 'too-many-files':
      return {
        title: t('uploader.warnings.couldNotUpload'),
        text: t('uploader.warnings.tooManyFiles', { count: warning.count, max: warning.max }),
        items: [],
      };
    case 'storage-exceeded':
      return {
        title: t('uploader.warnings.couldNotUpload'),
        text: t('uploader.warnings.storageExceeded', {
          total: size(warning.total),
          limit: size(warning.limit),
        }),
        items: [],
      };
    case 'duplicates':
      return {
        title: t('uploader.warnings.alreadyExist'),
        items: warning.names.map((filename) => t('uploader.warnings.alreadyPart', { filename })),
      };
    case 'empty-skipped':
      return {
        title: t('uploader.warnings.couldNotUploadAll'),
        text: t('uploader.warnings.emptySkipped'),
        items: warning.names,
      };
    case 'unsupported-transfer':
      return {
        title: t('uploader.warnings.couldNotUploadAll'),
        items: warning.files.map(({ name, type }) =>
          t('uploader.warnings.unsupportedTransfer', { filename: name, type }),
        ),
      };
    case 'case-collision':
      return {
        title: t('uploader.warnings.caseCollision'),
        text: t('uploader.warnings.caseCollisionText'),
        items: warning.pairs.map(([a, b]) => t('uploader.warnings.casePair', { a, b })),
      };
    case 'too-large':
      return {
        title: t('uploader.warnings.couldNotUploadAll'),
        items: warning.names.map((filename) =>
          t('uploader.warnings.tooLarge', { filename, limit: size(warning.limit) }),
        ),
      };
  }
}

/** The warnings of a selection, in one dismissible alert. */
export function UploadWarnings({
  warnings,
  onDismiss,
}: {
  warnings: readonly SelectionWarning[];
  onDismiss: () => void;
}) {
  const { t, i18n } = useTranslation();
  if (warnings.length === 0) return null;
  const size = (bytes: number) => formatBytes(bytes, i18n.language);
  return (
    <Alert
      color="yellow"
      variant="light"
      role="alert"
      title={t('uploader.warnings.title')}
      withCloseButton
      closeButtonLabel={t('uploader.warnings.dismiss')}
      onClose={onDismiss}
    >
      <Stack gap="xs">
        {warnings.map((warning) => {
          const { title, text, items } = wordingOf(warning, t, size);
          return (
            <div key={warning.kind}>
              <Text fw={600}>{title}</Text>
              {text && <Text>{text}</Text>}
              {items.length > 0 && (
                <List>
                  {items.map((item) => (
                    <List.Item key={item}>{item}</List.Item>
                  ))}
                </List>
              )}
            </div>
          );
        })}
      </Stack>
    </Alert>
  );
}
