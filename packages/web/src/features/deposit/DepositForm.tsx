import { Button, Group, Stack, Title } from '@mantine/core';
import { useEffect, useReducer, useRef, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError, serverMessageOf } from '../../api/client';
import type { RecordJson } from '../../api/records';
import { useBootstrap } from '../../bootstrap';
import { browser } from '../../browser';
import { SelectField } from '../../components/form/SelectField';
import { TextField } from '../../components/form/TextField';
import {
  actionStateReducer,
  createInitialActionState,
  type ActionFailure,
  type ActionResult,
} from './action-state';
import { usePublishDraft, useSaveDraft } from './api';
import { CreatorFields } from './CreatorFields';
import { DepositFeedback } from './DepositFeedback';
import { applyFieldErrors, hasBlockingErrors } from './field-errors';
import {
  createEmptyFormValues,
  serializeDraft,
  toFormValues,
  type DepositFormValues,
} from './serializer';

export interface DepositFormProps {
  /** The draft being edited, or null for a new upload (created by the first save). */
  initialDraft: RecordJson | null;
  /** Called once the first save has created the draft (the page then titles itself an edit). */
  onCreated?: (draft: RecordJson) => void;
}

/**
 * The deposit form. Validation is the server's (drafts are stored even when invalid, reference
 * §1.0); its errors are put on the fields after each save. The form's values are never replaced
 * by a server answer: a partial save drops invalid values on the server, and the person must
 * still see what they typed to correct it (reference §2.7).
 */
export function DepositForm({ initialDraft, onCreated }: DepositFormProps) {
  const { t } = useTranslation();
  const { vocabularies } = useBootstrap();
  const [defaultValues] = useState(() =>
    initialDraft ? toFormValues(initialDraft) : createEmptyFormValues(formatLocalDate(new Date())),
  );
  const [loadedErrors] = useState(() => initialDraft?.errors ?? []);
  const form = useForm<DepositFormValues>({ defaultValues });
  const { clearErrors, getValues, setError } = form;
  const [actionState, dispatch] = useReducer(
    actionStateReducer,
    loadedErrors,
    createInitialActionState,
  );
  // The draft as the server last returned it: the base of the next save (links, revision).
  const savedDraft = useRef(initialDraft);
  // Guards against a second click before the busy state has rendered.
  const isRunning = useRef(false);
  const saveDraft = useSaveDraft();
  const publishDraft = usePublishDraft();

  useEffect(() => {
    applyFieldErrors(setError, loadedErrors);
  }, [loadedErrors, setError]);

  async function save(): Promise<RecordJson> {
    clearErrors();
    const base = savedDraft.current;
    const draft = await saveDraft.mutateAsync({
      payload: serializeDraft(getValues(), base),
      draft: base,
    });
    savedDraft.current = draft;
    if (!base) {
      if (draft.links.self_html) browser.replaceUrl(draft.links.self_html);
      onCreated?.(draft);
    }
    applyFieldErrors(setError, draft.errors ?? []);
    return draft;
  }

  function finish(result: ActionResult) {
    isRunning.current = false;
    dispatch({ type: 'finished', result });
  }

  /** Puts a failed request's field errors on the fields; the rest is for the banner. */
  function reportFailure(error: unknown): ActionFailure {
    const failure = toActionFailure(error);
    applyFieldErrors(setError, failure.errors);
    return failure;
  }

  async function handleSave() {
    if (isRunning.current) return;
    isRunning.current = true;
    dispatch({ type: 'started', action: 'save' });
    try {
      const draft = await save();
      finish(
        draft.errors?.length
          ? { type: 'saved-with-feedback', errors: draft.errors }
          : { type: 'saved' },
      );
    } catch (error) {
      finish(
        isConflict(error)
          ? { type: 'conflict' }
          : { type: 'save-failed', failure: reportFailure(error) },
      );
    }
  }

  async function handlePublish() {
    if (isRunning.current) return;
    isRunning.current = true;
    dispatch({ type: 'started', action: 'publish' });
    let draft: RecordJson;
    try {
      draft = await save();
    } catch (error) {
      finish(
        isConflict(error)
          ? { type: 'conflict' }
          : { type: 'publish-failed', failure: reportFailure(error) },
      );
      return;
    }
    if (hasBlockingErrors(draft.errors)) {
      finish({ type: 'publish-blocked', errors: draft.errors ?? [] });
      return;
    }
    try {
      const record = await publishDraft.mutateAsync(draft);
      // Stays busy until the record page has loaded, so the draft cannot be published twice.
      browser.assign(record.links.self_html ?? `/records/${encodeURIComponent(record.id)}`);
    } catch (error) {
      const failure = reportFailure(error);
      // The save just succeeded, so "Record saved with validation feedback" holds.
      finish(
        failure.errors.length > 0
          ? { type: 'publish-blocked', errors: failure.errors }
          : { type: 'publish-failed', failure },
      );
    }
  }

  const resourceTypeOptions = vocabularies.resourcetypes.map((entry) => ({
    value: entry.id,
    label: entry.title,
  }));
  const { status } = actionState;

  return (
    <FormProvider {...form}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void handleSave();
        }}
      >
        <Stack gap="lg">
          <DepositFeedback
            result={actionState.result}
            onDismiss={() => dispatch({ type: 'dismissed' })}
          />
          <Stack
            component="section"
            id="basic-information"
            tabIndex={-1}
            aria-labelledby="basic-information-heading"
            gap="md"
          >
            <Title order={2} size="h3" id="basic-information-heading">
              {t('deposit.sections.basicInformation')}
            </Title>
            <TextField<DepositFormValues>
              name="metadata.title"
              label={t('deposit.fields.title')}
              autoComplete="off"
              required
            />
            <CreatorFields />
            <TextField<DepositFormValues>
              name="metadata.publication_date"
              label={t('deposit.fields.publicationDate')}
              help={t('deposit.fields.publicationDateHelp')}
              placeholder={t('deposit.fields.publicationDateHelp')}
              autoComplete="off"
              required
            />
            <SelectField<DepositFormValues>
              name="metadata.resource_type"
              label={t('deposit.fields.resourceType')}
              placeholder={t('deposit.fields.resourceTypePlaceholder')}
              options={resourceTypeOptions}
              required
            />
          </Stack>
          <Group role="group" aria-label={t('deposit.actions.label')}>
            <Button
              type="submit"
              variant="default"
              loading={status === 'saving'}
              disabled={status === 'publishing'}
            >
              {t('deposit.actions.save')}
            </Button>
            <Button
              type="button"
              loading={status === 'publishing'}
              disabled={status === 'saving'}
              onClick={() => void handlePublish()}
            >
              {t('deposit.actions.publish')}
            </Button>
          </Group>
        </Stack>
      </form>
    </FormProvider>
  );
}

function toActionFailure(error: unknown): ActionFailure {
  // An ApiError is an expected outcome; anything else is a defect worth a trace in the console.
  if (!(error instanceof ApiError)) console.error(error);
  const serverMessage = serverMessageOf(error);
  return {
    errors: error instanceof ApiError ? (error.errors ?? []) : [],
    ...(serverMessage ? { serverMessage } : {}),
  };
}

function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 412;
}

/** Today in the person's time zone, as the date they would type (YYYY-MM-DD). */
function formatLocalDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
