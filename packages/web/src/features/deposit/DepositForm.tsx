import { Box, Button, Grid, Group, Stack, Text } from '@mantine/core';
import {
  deserializeDraft,
  editorButtonsOf,
  isPublishDisabled,
  isSubmitReviewDisabled,
  type DepositCommunity,
  type DepositFormValues,
  type FilesProgress,
} from '@cairn/shared';
import { AccessField } from './access/AccessField';
import { isRunning } from './action-state';
import { CommunityHeader } from './community/CommunityHeader';
import { CommunityJsonSchema, type CommunityJson } from './community/community-json';
import {
  CommunitySelectionModal,
  ConflictDialog,
  depositDialogs,
  ImportMetadataModal,
  PublishModal,
  SubmitReviewModal,
} from './dialogs';
import { assertUniqueCheckboxIds } from './publish-checkboxes';
import { CustomFieldsSections } from './custom-fields/CustomFieldsSections';
import { PidField } from './pids/PidField';
import { useCallback, useContext, useEffect, useRef, useState, type SyntheticEvent } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { RecordJson } from '../../api/records';
import { useBootstrap } from '../../bootstrap';
import { useDoiTransition } from './api';
import { ActionButton } from './ActionButton';
import { CreatorsField } from './creators/CreatorsField';
import { DeleteButton } from './DeleteButton';
import { ActionStatus } from './ActionStatus';
import { DepositFeedback } from './DepositFeedback';
import { asFormValues, createDraftValues, useSerializerOptions } from './draft-values';
import { FormSection } from './FormSection';
import {
  DatesField,
  DescriptionsField,
  FundingField,
  IdentifiersField,
  LanguagesField,
  LicensesField,
  PublicationDateField,
  PublisherField,
  ReferencesField,
  RelatedWorksField,
  ResourceTypeField,
  SubjectsField,
  TitlesField,
  VersionField,
} from './metadata';
import { FileUploader } from './files/FileUploader';
import type { FileEntry } from './files/uploader-state';
import { SectionNav } from './SectionNav';
import { StatusHeader } from './StatusHeader';
import { ShareButton } from '../shared/share/ShareButton';
import { accessSettingsOf } from '../shared/share/access-settings';
import { useDepositController } from './useDepositController';
import { useDraftSafety } from './useDraftSafety';
import { useLeaveGuard } from './useLeaveGuard';
import { LeaveDialog } from './LeaveDialog';
import { isUploading } from './files/uploader-state';
import { RestoreEditsBanner } from './RestoreEditsBanner';
import type { DraftJournal } from './draft-journal';
import { applyFieldErrors } from './field-errors';
import { AutosaveDelayContext } from './autosave-delay';

export interface DepositFormProps {
  /** The draft being edited, or null for a new upload (created by the first save). */
  initialDraft: RecordJson | null;
  /** Called once the first save has created the draft (the page then titles itself an edit). */
  onCreated?: (draft: RecordJson) => void;
  /** Where unsaved edits are kept; the browser's IndexedDB by default. */
  journal?: DraftJournal;
}

/** The sections this form mounts (the section nav lists them). */
const MOUNTED_SECTIONS = [
  'files',
  'basic-information',
  'recommended-information',
  'funding',
  'alternate-identifiers',
  'related-works',
  'references',
  'custom-fields',
  'visibility',
] as const;

/** The community in the shape the community widgets read. */
function toCommunityJson(community: DepositCommunity | undefined): CommunityJson | null {
  if (!community) return null;
  const parsed = CommunityJsonSchema.safeParse(community);
  return parsed.success ? parsed.data : null;
}

/** Files of the draft as listed in it, all finished (the uploader reports live progress). */
function filesOf(draft: RecordJson | null, enabled: boolean): FilesProgress {
  const entries = draft?.files?.entries ?? {};
  return { enabled, count: Object.keys(entries).length, allFinished: true };
}

/**
 * The deposit form, laid out like InvenioRDM's, so that people who deposit there too find their way
 * about it: the feedback banner, the community header, the sections in a main column with a section
 * nav, and a sidebar with the status, the actions, visibility and delete. Validation is the
 * server's (drafts are stored even when invalid); its errors land on the fields after each save.
 *
 * Widgets of the other editor parts mount in the places marked below (editor contract).
 */
export function DepositForm({ initialDraft, onCreated, journal }: DepositFormProps) {
  const { t } = useTranslation();
  const autosaveDelayMs = useContext(AutosaveDelayContext);
  const { config, permissions } = useBootstrap();
  assertUniqueCheckboxIds(config.publishModalExtra.checkboxes);
  // An instance may configure no custom fields at all; then the section has nothing to show.
  const hasCustomFields = config.customFieldsUi.length > 0;
  const serializerOptions = useSerializerOptions();
  const [defaultValues] = useState(() =>
    createDraftValues(initialDraft, serializerOptions, formatLocalDate(new Date())),
  );
  const form = useForm<DepositFormValues>({ defaultValues });
  const controller = useDepositController({
    initialDraft,
    form,
    ...(onCreated ? { onCreated } : {}),
  });
  const { actionState, draft, record, editorState } = controller;
  const safety = useDraftSafety({
    form,
    controller,
    autosaveDelayMs,
    ...(journal ? { journal } : {}),
  });
  const [publishOpen, setPublishOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  // What the last import wrote into the form, said beside its button.
  const [importOutcome, setImportOutcome] = useState('');
  // Live progress from the uploader; until it reports, the draft's listed files.
  const [uploadProgress, setUploadProgress] = useState<Omit<FilesProgress, 'enabled'> | null>(null);
  const filesEnabled = useWatch({ control: form.control, name: 'files.enabled' });
  // Read only when the person tries to leave: no render for it.
  const uploadingRef = useRef(false);
  const guard = useLeaveGuard({ controller, isUploading: () => uploadingRef.current });
  // Stable, and a no-op when nothing changed: the uploader reports on every render of its list.
  const handleFilesChange = useCallback((entries: readonly FileEntry[]) => {
    uploadingRef.current = isUploading({ entries });
    const count = entries.length;
    const allFinished = entries.every((entry) => entry.status === 'completed');
    setUploadProgress((current) =>
      current?.count === count && current.allFinished === allFinished
        ? current
        : { count, allFinished },
    );
  }, []);
  const files = uploadProgress
    ? { enabled: filesEnabled, ...uploadProgress }
    : filesOf(draft, filesEnabled);

  const { setError } = form;
  const [loadedErrors] = useState(() => initialDraft?.errors ?? []);
  useEffect(() => {
    applyFieldErrors(setError, loadedErrors);
  }, [loadedErrors, setError]);

  const buttons = editorButtonsOf(record, editorState);
  const [reviewDialog, setReviewDialog] = useState<'review' | 'direct' | null>(null);
  const [pickerOpen, setPickerOpen] = useState(false);
  const recordAccess = useWatch({ control: form.control, name: 'access.record' });
  const community = toCommunityJson(editorState.selectedCommunity);
  const isInitialSubmission = !record.is_published && (record.versions?.index ?? 1) === 1;
  let pidBusy: 'reserve' | 'discard' | false = false;
  if (isRunning(actionState, 'reserve-pid')) pidBusy = 'reserve';
  else if (isRunning(actionState, 'discard-pid')) pidBusy = 'discard';
  const parentPids = record.parent?.['pids'] as { doi?: { identifier?: string } } | undefined;
  const parentDoi = parentPids?.doi?.identifier;
  const doiTransition = useDoiTransition(
    draft,
    !record.is_published && (record.versions?.index ?? 1) > 1,
  );
  const isSubmitting = actionState.running !== null;
  const publishDisabled = isPublishDisabled({ isSubmitting, files });
  const submitDisabled = isSubmitReviewDisabled({
    recordExists: draft !== null,
    canManage: permissions.can_manage,
    state: editorState,
    isSubmitting,
    files,
  });

  return (
    <FormProvider {...form}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void controller.save();
        }}
        onPointerOver={prefetchDialogsNearButton}
        onFocus={prefetchDialogsNearButton}
      >
        <Stack gap="lg">
          <RestoreEditsBanner
            entry={safety.restorable}
            onRestore={safety.restore}
            onDiscard={safety.discard}
          />
          <DepositFeedback outcome={actionState.last} onDismiss={controller.dismissFeedback} />
          <CommunityHeader
            community={community}
            record={{
              isNew: draft === null,
              status: editorState.status,
              canManage: permissions.can_manage,
              showHeader: editorState.ui.showCommunityHeader,
              showSelectionButton: editorState.ui.showCommunitySelectionButton,
              disableSelectionButton: editorState.ui.disableCommunitySelectionButton,
            }}
            onChange={controller.selectCommunity}
            memberships={config.userCommunitiesMemberships}
            isInitialSubmission={isInitialSubmission}
          />
          <Grid gap="xl">
            <Grid.Col span={{ base: 12, md: 8 }}>
              <Stack gap="xl">
                <SectionNav
                  sectionIds={
                    hasCustomFields
                      ? MOUNTED_SECTIONS
                      : MOUNTED_SECTIONS.filter((id) => id !== 'custom-fields')
                  }
                />
                <FormSection id="files" labelKey="deposit.sections.files">
                  <FileUploader
                    draft={draft}
                    ensureDraft={controller.ensureDraft}
                    quota={config.quota}
                    allowEmptyFiles={config.allowEmptyFiles}
                    concurrency={config.fileUploadConcurrency}
                    batchFiles={config.fileUploadBatchFiles}
                    enabledTransferTypes={config.enabledTransferTypes}
                    canNewVersion={permissions.can_new_version}
                    onNewVersion={() => void controller.newVersion()}
                    onFilesChange={handleFilesChange}
                    onFilesSaved={() =>
                      void controller.refreshAfterFileChange().catch(console.error)
                    }
                    onImportFailed={controller.reportImportFailed}
                  />
                </FormSection>
                <FormSection id="basic-information" labelKey="deposit.sections.basicInformation">
                  <PidField
                    onReserve={() => void controller.reservePid('doi')}
                    onDiscard={() => void controller.discardPid('doi')}
                    busy={pidBusy}
                    config={{ required: config.isDoiRequired }}
                    isPublished={record.is_published}
                    {...(parentDoi ? { parentDoi } : {})}
                    doiTransition={doiTransition}
                    onChoiceChange={(choice) => controller.setNeedsDoi(choice === 'no')}
                  />
                  <ResourceTypeField />
                  <TitlesField />
                  <PublicationDateField />
                  <CreatorsField name="metadata.creators" creatorMode={config.creatorMode} />
                  <DescriptionsField />
                  <LicensesField />
                </FormSection>
                <FormSection
                  id="recommended-information"
                  labelKey="deposit.sections.recommendedInformation"
                >
                  <CreatorsField name="metadata.contributors" creatorMode={config.creatorMode} />
                  <SubjectsField />
                  <LanguagesField />
                  <DatesField />
                  <VersionField />
                  <PublisherField />
                </FormSection>
                <FormSection id="funding" labelKey="deposit.sections.funding">
                  <FundingField />
                </FormSection>
                <FormSection
                  id="alternate-identifiers"
                  labelKey="deposit.sections.alternateIdentifiers"
                >
                  <IdentifiersField />
                </FormSection>
                <FormSection id="related-works" labelKey="deposit.sections.relatedWorks">
                  <RelatedWorksField />
                </FormSection>
                <FormSection id="references" labelKey="deposit.sections.references">
                  <ReferencesField />
                </FormSection>
                {hasCustomFields && (
                  <FormSection id="custom-fields" labelKey="deposit.sections.customFields">
                    <CustomFieldsSections />
                  </FormSection>
                )}
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Box pos="sticky" top={16}>
                <Stack>
                  <StatusHeader record={record} />
                  {draft !== null && permissions.can_manage && (
                    <Group>
                      <ShareButton
                        recordId={draft.id}
                        title={draft.metadata.title || t('records.untitled')}
                        isPublished={record.is_published}
                        accessSettings={accessSettingsOf(record)}
                      />
                    </Group>
                  )}
                  <Group gap="xs">
                    <Button
                      variant="default"
                      onClick={() => {
                        setImportOutcome('');
                        setImportOpen(true);
                      }}
                      onPointerEnter={preloadImport}
                      onFocus={preloadImport}
                    >
                      {t('deposit.actions.importMetadata')}
                    </Button>
                  </Group>
                  <Text size="xs" role="status">
                    {importOutcome}
                  </Text>
                  {safety.autosavedAt && (
                    <Text size="xs" c="dimmed" role="status">
                      {t('deposit.journal.autosaved', {
                        time: safety.autosavedAt.toLocaleTimeString(),
                      })}
                    </Text>
                  )}
                  <Group grow role="group" aria-label={t('deposit.actions.label')}>
                    <ActionButton
                      action="save"
                      type="submit"
                      variant="default"
                      actionState={actionState}
                      onClick={() => undefined}
                    >
                      {t('deposit.actions.save')}
                    </ActionButton>
                    <ActionButton
                      action="preview"
                      variant="default"
                      actionState={actionState}
                      onClick={() => void controller.preview()}
                    >
                      {t('deposit.actions.preview')}
                    </ActionButton>
                  </Group>
                  {buttons.publishArea === 'publish' && (
                    <ActionButton
                      action="publish"
                      alsoSpinsFor={['publish-without-community']}
                      actionState={actionState}
                      disabled={publishDisabled}
                      onClick={() => setPublishOpen(true)}
                    >
                      {t('deposit.actions.publish')}
                    </ActionButton>
                  )}
                  {buttons.publishArea === 'submit-review' && (
                    <>
                      <ActionButton
                        action="submit-review"
                        actionState={actionState}
                        disabled={submitDisabled}
                        onClick={() => setReviewDialog('review')}
                      >
                        {buttons.submitLabel === 'submitted-for-review'
                          ? t('deposit.actions.submittedForReview')
                          : t('deposit.actions.submitReview')}
                      </ActionButton>
                      {buttons.showDirectPublish && (
                        <ActionButton
                          action="submit-review"
                          actionState={actionState}
                          disabled={submitDisabled}
                          onClick={() => setReviewDialog('direct')}
                        >
                          {t('deposit.actions.publishToCommunity')}
                        </ActionButton>
                      )}
                    </>
                  )}
                  {buttons.publishArea === 'change-community' && (
                    <>
                      <Button
                        variant="default"
                        // After a declined or expired review only can_manage bars a new choice.
                        disabled={isSubmitting || (draft !== null && !permissions.can_manage)}
                        onClick={() => setPickerOpen(true)}
                      >
                        {t('deposit.actions.changeCommunity')}
                      </Button>
                      <ActionButton
                        action="publish-without-community"
                        actionState={actionState}
                        disabled={publishDisabled}
                        onClick={() => void controller.publishWithoutCommunity()}
                      >
                        {t('deposit.actions.publishWithoutCommunity')}
                      </ActionButton>
                    </>
                  )}
                  <ActionStatus outcome={actionState.last} />
                  <FormSection id="visibility" labelKey="deposit.sections.visibility">
                    <AccessField
                      community={community}
                      record={{
                        isPublished: record.is_published,
                        ...(record.created ? { created: record.created } : {}),
                        ...(typeof draft?.access?.['record'] === 'string'
                          ? { storedRecordAccess: draft.access['record'] }
                          : {}),
                      }}
                      gracePeriod={{
                        days: config.gracePeriodDays,
                        allowAfterGrace: config.allowRestrictionAfterGracePeriod,
                      }}
                    />
                  </FormSection>
                  {permissions.can_delete_draft && (
                    <DeleteButton
                      kind={buttons.deleteKind}
                      disabled={draft === null}
                      actionState={actionState}
                      onConfirm={() => void controller.remove()}
                    />
                  )}
                </Stack>
              </Box>
            </Grid.Col>
          </Grid>
        </Stack>
        <PublishModal
          opened={publishOpen}
          onClose={() => setPublishOpen(false)}
          onPreview={() => {
            setPublishOpen(false);
            void controller.preview();
          }}
          onPublish={() => {
            setPublishOpen(false);
            void controller.publish();
          }}
          extraCheckboxes={config.publishModalExtra.checkboxes}
          extraText={config.publishModalExtra.text}
        />
        {community && (
          <SubmitReviewModal
            opened={reviewDialog !== null}
            onClose={() => setReviewDialog(null)}
            community={community}
            directPublish={reviewDialog === 'direct'}
            isPublished={record.is_published}
            extraCheckboxes={config.publishModalExtra.checkboxes}
            busy={isRunning(actionState, 'submit-review')}
            onSubmit={(comment) => {
              // Beside "Publish to community", "Submit for review" must mean a review.
              const requireReview = reviewDialog === 'review' && buttons.showDirectPublish;
              void controller.submitReview(comment, { requireReview }).then((submitted) => {
                if (!submitted) setReviewDialog(null);
              });
            }}
          />
        )}
        <CommunitySelectionModal
          opened={pickerOpen}
          onClose={() => setPickerOpen(false)}
          selected={community}
          onSelect={(chosen) => {
            setPickerOpen(false);
            controller.selectCommunity(chosen);
          }}
          isRecordPublic={recordAccess === 'public'}
          isInitialSubmission={isInitialSubmission}
        />
        <ImportMetadataModal
          opened={importOpen}
          onClose={() => setImportOpen(false)}
          ensureDraft={controller.ensureDraft}
          currentMetadata={() => form.getValues('metadata')}
          toFormMetadata={(metadata) =>
            deserializeDraft({ metadata }, serializerOptions).values.metadata
          }
          onApply={(changes, message) => {
            const values = form.getValues();
            // As a restored journal is: unsaved edits over the form's defaults, which autosave
            // then stores. Every widget follows a reset, the field arrays and the text editor too.
            form.reset(asFormValues({ ...values, metadata: { ...values.metadata, ...changes } }), {
              keepDefaultValues: true,
            });
            setImportOpen(false);
            setImportOutcome(message);
          }}
        />
        <ConflictDialog
          conflict={controller.conflict}
          onKeepMine={() => void controller.keepMine()}
          onTakeTheirs={controller.takeTheirs}
        />
        <LeaveDialog guard={guard} />
      </form>
    </FormProvider>
  );
}

let areDialogsFetched = false;

/** The Import dialog is not among the form's dialogs (its own chunk): fetched near its button. */
function preloadImport() {
  ImportMetadataModal.preload().catch(() => undefined);
}

/**
 * Fetches the dialogs' code once a pointer or the keyboard reaches a button of the form, most of
 * which open one: ahead of the click, and never while someone only types.
 */
function prefetchDialogsNearButton(event: SyntheticEvent) {
  if (areDialogsFetched || !(event.target instanceof Element) || !event.target.closest('button'))
    return;
  areDialogsFetched = true;
  for (const dialog of depositDialogs) dialog.preload().catch(() => undefined);
}

/** Today in the person's time zone, as the date they would type (YYYY-MM-DD). */
function formatLocalDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
