import {
  Alert,
  Box,
  Button,
  Checkbox,
  FileButton,
  Group,
  Modal,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import {
  IMPORT_MAX_FILE_BYTES,
  ImportMetadataAnswerSchema,
  type ImportMetadataAnswer,
  type ImportMetadataRequest,
  type MetadataFormValues,
  type RelatedIdentifierFormValues,
} from '@cairn/shared';
import { useId, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { useApiClient } from '../../../api/useApiClient';
import { useBootstrap } from '../../../bootstrap';
import { FieldReview } from './FieldReview';
import { fillNames, loadLabels, type ValueLabels } from './import-lookups';
import {
  defaultChoice,
  IMPORT_FIELDS,
  mergeImport,
  reviewImport,
  type ImportField,
  type ImportReview,
  type ToFormMetadata,
} from './import-merge';
import { addImportStrings, IMPORT_NS } from './import-strings';

export interface ImportMetadataModalProps {
  opened: boolean;
  onClose: () => void;
  /** The draft to import into: a new upload is saved first, as an upload is. */
  ensureDraft: () => Promise<{ id: string }>;
  /** The form's metadata as it is now, read when the review opens. */
  currentMetadata: () => MetadataFormValues;
  /** The draft's deserializer, as the form reads a draft. */
  toFormMetadata: ToFormMetadata;
  /** Writes the fields taken into the form; `message` says what happened, for the page to say. */
  onApply: (changes: Partial<MetadataFormValues>, message: string) => void;
}

/**
 * The editor's Import: metadata from a DOI or a file (read here, sent as text), reviewed field by
 * field beside the form's own before any of it is taken. The server reads and matches the
 * source and saves nothing; only Take writes into the form, whose autosave stores it.
 */
export function ImportMetadataModal({ opened, onClose, ...rest }: ImportMetadataModalProps) {
  const { i18n } = useTranslation();
  addImportStrings(i18n);
  const { t } = useTranslation(IMPORT_NS);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('title')}
      size="xl"
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {opened && <Importer onClose={onClose} {...rest} />}
    </Modal>
  );
}

interface Reviewing {
  answer: ImportMetadataAnswer;
  review: ImportReview;
  labels: ValueLabels;
  taken: ReadonlySet<ImportField>;
  relations: ReadonlySet<number>;
}

function Importer({
  onClose,
  ensureDraft,
  currentMetadata,
  toFormMetadata,
  onApply,
}: Omit<ImportMetadataModalProps, 'opened'>) {
  const { t, i18n } = useTranslation(IMPORT_NS);
  const client = useApiClient();
  const { vocabularies } = useBootstrap();
  const [doi, setDoi] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [reviewing, setReviewing] = useState<Reviewing | null>(null);
  const fileHelpId = useId();

  async function run(body: ImportMetadataRequest) {
    setBusy(true);
    setError('');
    try {
      const draft = await ensureDraft();
      const answer = ImportMetadataAnswerSchema.parse(
        await client.post(
          `/api/records/${encodeURIComponent(draft.id)}/draft/actions/import-metadata`,
          body,
          { accept: 'application/json' },
        ),
      );
      const review = reviewImport(answer, currentMetadata(), toFormMetadata);
      const ln = (i18n.resolvedLanguage ?? i18n.language).slice(0, 2);
      const [labels] = await Promise.all([
        loadLabels(client, review, ln, vocabularies.resourcetypes),
        fillNames(client, review),
      ]);
      setReviewing({
        answer,
        review,
        labels,
        taken: defaultChoice(review.fields),
        relations: new Set(),
      });
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.hasServerMessage ? failure.message : t('failed'),
      );
    } finally {
      setBusy(false);
    }
  }

  async function readFile(file: File | null | undefined) {
    if (!file) return;
    setError('');
    // Refused before it is read or sent: the server would refuse it too, after the upload.
    if (file.size > IMPORT_MAX_FILE_BYTES) {
      setError(t('tooLarge', { name: file.name }));
      return;
    }
    await run({ content: await file.text() });
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    if (!busy) void readFile(event.dataTransfer.files[0]);
  }

  if (reviewing) {
    return (
      <Review
        reviewing={reviewing}
        onChange={setReviewing}
        onBack={() => setReviewing(null)}
        onCancel={onClose}
        onApply={() => {
          const relations = reviewing.review.suggestions.filter((_, i) =>
            reviewing.relations.has(i),
          );
          const changes = mergeImport(
            currentMetadata(),
            reviewing.review,
            reviewing.taken,
            relations,
          );
          onApply(changes, t('applied', { count: Object.keys(changes).length }));
        }}
      />
    );
  }

  const trimmed = doi.trim();
  return (
    <Stack gap="md">
      <Text size="sm">{t('intro')}</Text>
      <Group align="flex-end" gap="sm" wrap="nowrap">
        <TextInput
          label={t('doiLabel')}
          description={t('doiHelp')}
          value={doi}
          onChange={(event) => setDoi(event.currentTarget.value)}
          onKeyDown={(event) => {
            // Not a <form>: its submit would reach the deposit form's through the portal.
            if (event.key === 'Enter' && trimmed !== '' && !busy) {
              event.preventDefault();
              void run({ doi: trimmed });
            }
          }}
          spellCheck={false}
          style={{ flex: 1 }}
          data-autofocus
        />
        <Button disabled={trimmed === ''} loading={busy} onClick={() => void run({ doi: trimmed })}>
          {t('fetch')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" ta="center">
        {t('or')}
      </Text>
      <Box
        onDragOver={(event) => event.preventDefault()}
        onDrop={drop}
        p="md"
        style={{
          border: '1px dashed var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-sm)',
        }}
      >
        <Text size="sm" fw={500}>
          {t('fileLabel')}
        </Text>
        <Text size="xs" c="dimmed" id={fileHelpId} mb="xs">
          {t('fileHelp')}
        </Text>
        <FileButton
          onChange={(file) => void readFile(file)}
          accept=".bib,.bibtex,.ris,.cff,.yaml,.yml,.json,.xml,.txt,application/json,application/xml,text/xml,text/plain"
        >
          {(props) => (
            <Button variant="default" disabled={busy} aria-describedby={fileHelpId} {...props}>
              {t('chooseFile')}
            </Button>
          )}
        </FileButton>
      </Box>
      <Box aria-live="polite">
        {busy && (
          <Text size="sm" c="dimmed">
            {t('reading')}
          </Text>
        )}
      </Box>
      {error && (
        <Alert color="red" role="alert">
          {error} {t('unchanged')}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('cancel')}
        </Button>
      </Group>
    </Stack>
  );
}

function Review({
  reviewing,
  onChange,
  onBack,
  onCancel,
  onApply,
}: {
  reviewing: Reviewing;
  onChange: (next: Reviewing) => void;
  onBack: () => void;
  onCancel: () => void;
  onApply: () => void;
}) {
  const { t } = useTranslation(IMPORT_NS);
  const { answer, review, labels, taken, relations } = reviewing;
  const source = answer.source;
  const sourceName =
    source.format === 'doi'
      ? `DOI ${source.doi ?? ''}${source.agency ? ` (${source.agency === 'datacite' ? 'DataCite' : 'Crossref'})` : ''}`
      : t('sourceFile', { format: t(`format.${source.format}`) });
  const suggestedDoi = review.suggestions[0]?.identifier ?? '';
  const count = taken.size + (relations.size > 0 && !taken.has('related_identifiers') ? 1 : 0);
  const toggle = (field: ImportField) => {
    const next = new Set(taken);
    if (!next.delete(field)) next.add(field);
    onChange({ ...reviewing, taken: next });
  };
  return (
    <Stack gap="md">
      <Text size="sm" role="status">
        {t('source', { source: sourceName })}{' '}
        {review.fields.length === 0 ? t('nothing') : t('reviewHelp')}
      </Text>
      {review.fields.length > 0 && (
        <Group gap="sm">
          <Button
            size="compact-sm"
            variant="light"
            onClick={() =>
              onChange({ ...reviewing, taken: new Set(review.fields.map((f) => f.field)) })
            }
          >
            {t('takeAll')}
          </Button>
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => onChange({ ...reviewing, taken: new Set() })}
          >
            {t('keepMine')}
          </Button>
        </Group>
      )}
      {review.fields.map((entry) => (
        <FieldReview
          key={entry.field}
          entry={entry}
          checked={taken.has(entry.field)}
          onToggle={() => toggle(entry.field)}
          labels={labels}
        />
      ))}
      {answer.errors.length > 0 && (
        <Alert color="yellow" title={t('errorsTitle')}>
          <Stack gap={2}>
            {answer.errors.map((e) => (
              <Text size="sm" key={e.field}>
                {fieldTitle(t, e.field)}: {e.messages.join(' ')}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {review.suggestions.length > 0 && (
        <Checkbox.Group
          label={t('relationsLabel')}
          description={t('relationsHelp', { doi: suggestedDoi })}
          value={[...relations].map(String)}
          onChange={(chosen) => onChange({ ...reviewing, relations: new Set(chosen.map(Number)) })}
        >
          <Stack gap={4} mt="xs">
            {review.suggestions.map((suggestion: RelatedIdentifierFormValues, index) => (
              <Checkbox
                key={`${suggestion.relation_type}-${suggestion.identifier}`}
                value={String(index)}
                label={relationLabel(t, suggestion)}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
      <Group justify="space-between">
        <Button variant="subtle" onClick={onBack}>
          {t('back')}
        </Button>
        <Group gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('cancel')}
          </Button>
          <Button onClick={onApply} disabled={count === 0}>
            {count === 0 ? t('applyNone') : t('apply', { count })}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

type ImportT = ReturnType<typeof useTranslation<typeof IMPORT_NS>>['t'];

/** An error's field as the review names it (`metadata.creators.0…` → "Creators"). */
function fieldTitle(t: ImportT, path: string): string {
  const field = path.replace(/^metadata\./, '').split('.')[0] ?? '';
  return (IMPORT_FIELDS as readonly string[]).includes(field)
    ? t(`fields.${field as ImportField}`)
    : path;
}

function relationLabel(t: ImportT, suggestion: RelatedIdentifierFormValues): string {
  const doi = suggestion.identifier;
  return suggestion.relation_type === 'isderivedfrom'
    ? t('relation.isderivedfrom', { doi })
    : t('relation.issupplementto', { doi });
}
