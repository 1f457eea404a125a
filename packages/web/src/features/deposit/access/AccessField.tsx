import {
  Alert,
  Checkbox,
  Fieldset,
  Radio,
  Skeleton,
  Stack,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import {
  accessForCommunity,
  DEFAULT_ACCESS,
  isIsoDay,
  isRestrictionBlockedByGracePeriod,
  MESSAGES,
  type Access,
  type AccessLevel,
  type DepositFormValues,
} from '@cairn/shared';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useController, useFormContext, useFormState, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { isRestrictedCommunity, type CommunityJson } from '../community/community-json';
import {
  accessStatusMessage,
  canApplyEmbargo,
  DEFAULT_GRACE_PERIOD,
  isEmbargoLifted,
  type AccessStatusMessage,
  type GracePeriodConfig,
} from './access-rules';
import { formatLongDate, todayIso } from './dates';

/** What the access panel needs to know about the record beyond the form's values. */
export interface AccessRecordState {
  isPublished: boolean;
  /** The record's `created` time, once saved. */
  created?: string;
  /** `access.record` as the server last stored it (the grace-period rule looks at it). */
  storedRecordAccess?: string;
}

export interface AccessFieldProps {
  /** The community chosen in the header; a restricted one forces a restricted record. */
  community?: CommunityJson | null;
  record?: AccessRecordState;
  /** Grace period for restricting published records, from the configuration. */
  gracePeriod?: GracePeriodConfig;
}

const NEW_RECORD: AccessRecordState = { isPublished: false };

const STATUS_TEXT = {
  public: ['publicTitle', 'publicText'],
  publicMetadataOnly: ['publicTitle', 'publicMetadataOnlyText'],
  embargoed: ['embargoedTitle', 'embargoedText'],
  restricted: ['restrictedTitle', 'restrictedText'],
  restrictedFiles: ['restrictedFilesTitle', 'restrictedFilesText'],
  embargoedFiles: ['embargoedFilesTitle', 'embargoedFilesText'],
} as const satisfies Record<AccessStatusMessage, readonly [string, string]>;

const STATUS_COLOR: Record<AccessStatusMessage, string> = {
  public: 'green',
  publicMetadataOnly: 'green',
  embargoed: 'orange',
  embargoedFiles: 'orange',
  restricted: 'red',
  restrictedFiles: 'orange',
};

/**
 * The access panel (InvenioRDM's Visibility card), bound to `access`: Public or Restricted for the
 * full record and for the files alone, an embargo with its end date and reason, and a message
 * saying who can see what.
 */
export function AccessField({
  community,
  record = NEW_RECORD,
  gracePeriod = DEFAULT_GRACE_PERIOD,
}: AccessFieldProps) {
  const { t, i18n } = useTranslation();
  const { control, setValue, getValues } = useFormContext<DepositFormValues>();
  const watched = useWatch({ control, name: 'access' }) as Access | undefined;
  const filesEnabled = useWatch({ control, name: 'files.enabled' }) !== false;
  const { errors } = useFormState({ control, name: 'access' });
  const access = normaliseAccess(watched);
  const isCommunityRestricted = isRestrictedCommunity(community);
  const today = todayIso();

  const restrictionLocked = isRestrictionBlockedByGracePeriod({
    isPublished: record.isPublished,
    created: record.created,
    storedRecordAccess: record.storedRecordAccess,
    gracePeriodDays: gracePeriod.days,
    allowRestrictionAfterGracePeriod: gracePeriod.allowAfterGrace,
    now: new Date(),
  });

  function update(next: Access) {
    setValue('access', next, { shouldDirty: true });
  }

  // A restricted community takes restricted records only. The one place the rule is applied: on
  // mount and whenever such a community is chosen. Removing the community re-enables Public (unlike
  // InvenioRDM, which leaves it locked).
  useEffect(() => {
    if (!community || !isCommunityRestricted) return;
    const current = normaliseAccess(getValues('access'));
    const next = accessForCommunity(current, community);
    if (next !== current) setValue('access', next, { shouldDirty: true });
  }, [community, isCommunityRestricted, getValues, setValue]);

  // Metadata-only records have no files to restrict.
  const hadFiles = useRef(filesEnabled);
  useEffect(() => {
    if (hadFiles.current && !filesEnabled) {
      setValue('access.files', 'public', { shouldDirty: true });
    }
    hadFiles.current = filesEnabled;
  }, [filesEnabled, setValue]);

  function chooseRecord(level: AccessLevel) {
    if (level === 'public') update({ ...access, record: 'public', embargo: { active: false } });
    else update({ ...access, record: 'restricted' });
  }

  function chooseFiles(level: AccessLevel) {
    if (level === 'public') update({ ...access, files: 'public', embargo: { active: false } });
    else update({ ...access, files: 'restricted' });
  }

  const embargoAllowed = canApplyEmbargo(access, { filesEnabled, isCommunityRestricted });
  const statusMessage = accessStatusMessage(access, { filesEnabled, isCommunityRestricted });
  const [statusTitle, statusText] = STATUS_TEXT[statusMessage];
  const untilLabel =
    formatLongDate(access.embargo.until, i18n.language) ?? t('depositAccess.unknownDate');
  const recordError = errors.access?.record?.message ?? errors.access?.message;
  const filesError = errors.access?.files?.message;
  const embargoError = errors.access?.embargo?.message ?? errors.access?.embargo?.active?.message;

  let filesContent;
  if (!filesEnabled) filesContent = <Text size="sm">{t('depositAccess.noFiles')}</Text>;
  else if (isCommunityRestricted || access.record === 'restricted')
    filesContent = <Text size="sm">{t('depositAccess.fullRecordRestricted')}</Text>;
  else
    filesContent = (
      <ProtectionRadios
        label={t('depositAccess.filesOnly')}
        value={access.files}
        onChange={chooseFiles}
        error={filesError}
      />
    );

  return (
    // Titled by the form section it stands in ("Visibility").
    <Stack gap="md">
      <ProtectionRadios
        label={t('depositAccess.fullRecord')}
        value={access.record}
        onChange={chooseRecord}
        error={recordError}
        publicBlock={isCommunityRestricted ? t('depositAccess.publicCommunityOnly') : undefined}
        restrictedBlock={restrictionLocked ? t('depositAccess.graceExpired') : undefined}
      />
      {filesContent}
      {/* A standing explanation, not an interruption: a note rather than Mantine's alert role. */}
      <Alert
        role="note"
        color={STATUS_COLOR[statusMessage]}
        title={t(`depositAccess.status.${statusTitle}`)}
      >
        {t(`depositAccess.status.${statusText}`, { date: untilLabel })}
      </Alert>
      <Fieldset legend={t('depositAccess.options')} variant="unstyled">
        <Stack gap="sm">
          <Checkbox
            label={t('depositAccess.applyEmbargo')}
            description={t('depositAccess.embargoHelp')}
            checked={access.embargo.active}
            disabled={!embargoAllowed && !access.embargo.active}
            error={embargoError}
            onChange={(event) =>
              update({
                ...access,
                embargo: event.currentTarget.checked
                  ? { ...access.embargo, active: true }
                  : { active: false },
              })
            }
          />
          {access.embargo.active && <EmbargoInputs />}
          {isEmbargoLifted(access, today) && (
            <Text size="sm">
              {t('depositAccess.embargoLifted', { date: untilLabel })}
              {access.embargo.reason && (
                <>
                  <br />
                  {t('depositAccess.embargoLiftedReason', { reason: access.embargo.reason })}
                </>
              )}
            </Text>
          )}
        </Stack>
      </Fieldset>
    </Stack>
  );
}

interface ProtectionRadiosProps {
  label: string;
  value: AccessLevel;
  onChange: (level: AccessLevel) => void;
  error: string | undefined;
  /** Why Public cannot be chosen; it is then disabled. */
  publicBlock?: string | undefined;
  /**
   * Why Restricted cannot be chosen (the grace period, with whom to contact): shown under it and
   * as its tooltip; it stays selectable while already selected.
   */
  restrictedBlock?: string | undefined;
}

/** Public or Restricted, for the full record or for the files only. */
function ProtectionRadios({
  label,
  value,
  onChange,
  error,
  publicBlock,
  restrictedBlock,
}: ProtectionRadiosProps) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      label={label}
      value={value}
      onChange={(next) => onChange(next === 'restricted' ? 'restricted' : 'public')}
      error={error}
    >
      <Stack gap={4} mt="xs">
        <Radio
          value="public"
          label={t('depositAccess.public')}
          disabled={publicBlock !== undefined}
          description={publicBlock}
        />
        <Tooltip label={restrictedBlock} disabled={restrictedBlock === undefined} multiline w={320}>
          <Radio
            value="restricted"
            label={t('depositAccess.restricted')}
            disabled={restrictedBlock !== undefined && value !== 'restricted'}
            description={restrictedBlock}
          />
        </Tooltip>
      </Stack>
    </Radio.Group>
  );
}

// The date picker library is loaded when an embargo is shown, not with the form.
const DateInput = lazy(() =>
  import('./EmbargoDateInput').then((module) => ({ default: module.DateInput })),
);

/** The date input's height with its label and help, held while its code loads. */
const EMBARGO_DATE_HEIGHT = 82;

/** The embargo's end date and reason, shown while the embargo is applied. */
function EmbargoInputs() {
  const { t } = useTranslation();
  const { control } = useFormContext<DepositFormValues>();
  // Destructured: the React Compiler lint takes `field` for a ref because it holds one.
  const {
    field: {
      ref: untilRef,
      name: untilName,
      value: until,
      onChange: onUntilChange,
      onBlur: onUntilBlur,
    },
    fieldState: { error: untilError },
  } = useController({
    control,
    name: 'access.embargo.until',
    // Checked when the core validates before an action; the server checks it too.
    rules: {
      validate: (value) => {
        if (!value) return MESSAGES.required;
        if (!isIsoDay(value)) return MESSAGES.invalidDate;
        if (value <= todayIso()) return MESSAGES.embargoFuture;
        return true;
      },
    },
  });
  const {
    field: {
      ref: reasonRef,
      name: reasonName,
      value: reason,
      onChange: onReasonChange,
      onBlur: onReasonBlur,
    },
    fieldState: { error: reasonError },
  } = useController({ control, name: 'access.embargo.reason' });
  return (
    <>
      <Suspense fallback={<Skeleton height={EMBARGO_DATE_HEIGHT} />}>
        <DateInput
          label={t('depositAccess.embargoUntil')}
          description={t('depositAccess.embargoUntilHelp')}
          placeholder={t('depositAccess.embargoUntilHelp')}
          valueFormat="YYYY-MM-DD"
          required
          clearable
          clearButtonProps={{ 'aria-label': t('depositAccess.calendar.clear') }}
          ariaLabels={{
            nextMonth: t('depositAccess.calendar.nextMonth'),
            previousMonth: t('depositAccess.calendar.previousMonth'),
            nextYear: t('depositAccess.calendar.nextYear'),
            previousYear: t('depositAccess.calendar.previousYear'),
            nextDecade: t('depositAccess.calendar.nextDecade'),
            previousDecade: t('depositAccess.calendar.previousDecade'),
            monthLevelControl: t('depositAccess.calendar.monthLevel'),
            yearLevelControl: t('depositAccess.calendar.yearLevel'),
          }}
          ref={untilRef}
          name={untilName}
          value={until || null}
          onChange={(value) => onUntilChange(value ?? '')}
          onBlur={onUntilBlur}
          error={untilError?.message}
        />
      </Suspense>
      <Textarea
        label={t('depositAccess.embargoReason')}
        description={t('depositAccess.embargoReasonHelp')}
        rows={3}
        ref={reasonRef}
        name={reasonName}
        value={reason ?? ''}
        onChange={onReasonChange}
        onBlur={onReasonBlur}
        error={reasonError?.message}
      />
    </>
  );
}

/** The form may not hold `access` yet (an older draft shape): a new record's access then. */
function normaliseAccess(access: Access | undefined): Access {
  if (!access) return { ...DEFAULT_ACCESS, embargo: { active: false } };
  return { ...access, embargo: access.embargo ?? { active: false } };
}
