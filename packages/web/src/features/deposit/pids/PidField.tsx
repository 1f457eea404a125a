import {
  ActionIcon,
  Button,
  Fieldset,
  Group,
  Input,
  Radio,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import {
  EXTERNAL_PID_DEBOUNCE_MS,
  EXTERNAL_PID_PROVIDER,
  type DepositFormValues,
  type DoiTransition,
  type PidFormValues,
} from '@cairn/shared';
import { useId, useState } from 'react';
import { useFormContext, useFormState, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useBootstrap } from '../../../bootstrap';
import {
  allowedDoiChoices,
  DEFAULT_DOI_CONFIG,
  initialDoiChoice,
  isManagedDoi,
  type DoiChoice,
  type DoiConfig,
} from './doi-rules';

export interface PidFieldProps {
  /** Reserves a managed DOI (the core saves the draft first, then POSTs links.reserve_doi). */
  onReserve: () => void;
  /** Discards the reserved DOI (DELETE links.reserve_doi). */
  onDiscard: () => void;
  /** Which of the two PID actions is running, from the core's action state. */
  busy?: 'reserve' | 'discard' | false;
  config?: Partial<DoiConfig>;
  /** The record is published: its DOI can no longer be changed here. */
  isPublished?: boolean;
  /** `parent.pids.doi.identifier`: a registered concept DOI makes a DOI required. */
  parentDoi?: string;
  /**
   * A new version's optional-DOI transition (a version keeps the kind of DOI the one before it had), from the DOI of the version it follows;
   * absent where every answer is allowed.
   */
  doiTransition?: DoiTransition | null;
  /** Told each answer, so the core can apply the DOI check (`doiNeededFor`) before publishing. */
  onChoiceChange?: (choice: DoiChoice) => void;
}

const CHOICES: readonly DoiChoice[] = ['yes', 'no', 'not_needed'];
const CHOICE_LABEL = { yes: 'yes', no: 'no', not_needed: 'notNeeded' } as const;

/**
 * The DOI controls, as InvenioRDM's, bound to `pids.doi`: whether the depositor brings a DOI, needs
 * one reserved here, or needs none; the external DOI is stored {@link EXTERNAL_PID_DEBOUNCE_MS}
 * after typing stops (or on leaving the input).
 */
export function PidField({
  onReserve,
  onDiscard,
  busy = false,
  config: configOverrides,
  isPublished = false,
  parentDoi,
  doiTransition,
  onChoiceChange,
}: PidFieldProps) {
  const { t } = useTranslation();
  const { siteName } = useBootstrap().config;
  const config: DoiConfig = { ...DEFAULT_DOI_CONFIG, ...configOverrides };
  if (!config.canBeManaged && !config.canBeUnmanaged) {
    throw new Error('A PID field must allow managed, unmanaged, or both.');
  }
  const { control, setValue } = useFormContext<DepositFormValues>();
  const doi = useWatch({ control, name: 'pids.doi' }) as PidFormValues | undefined;
  const { errors } = useFormState({ control, name: 'pids' });
  const isRequired = config.required || Boolean(parentDoi);
  const [choice, setChoice] = useState(() => initialDoiChoice(doi, config, isRequired));
  const [external, setExternal] = useState(() =>
    doi?.provider === EXTERNAL_PID_PROVIDER ? doi.identifier : '',
  );
  const errorId = useId();
  const storeExternal = useDebouncedCallback((identifier: string) => {
    setValue('pids.doi', { identifier, provider: EXTERNAL_PID_PROVIDER }, { shouldDirty: true });
  }, EXTERNAL_PID_DEBOUNCE_MS);

  const reserved = isManagedDoi(doi);
  const locked = (isPublished && Boolean(doi?.identifier)) || reserved;
  const transitions = config.required ? undefined : allowedDoiChoices(doiTransition);
  const offered = CHOICES.filter((option) => {
    if (option === 'yes') return config.canBeUnmanaged;
    if (option === 'no') return config.canBeManaged;
    return !isRequired;
  });
  const pidsError = errors.pids?.message;
  const error =
    errors.pids?.doi?.message ??
    errors.pids?.doi?.identifier?.message ??
    (typeof pidsError === 'string' ? pidsError : undefined);

  function choose(next: DoiChoice) {
    storeExternal.cancel();
    setChoice(next);
    onChoiceChange?.(next);
    if (next === 'yes') {
      setValue(
        'pids.doi',
        { identifier: external, provider: EXTERNAL_PID_PROVIDER },
        { shouldDirty: true },
      );
    } else {
      // A managed DOI is reserved by its button; none is wanted otherwise.
      setValue('pids', {}, { shouldDirty: true });
    }
  }

  let answer;
  if (choice === 'yes') {
    answer = (
      <TextInput
        label={t('depositPids.externalLabel')}
        placeholder={t('depositPids.externalPlaceholder')}
        description={t('depositPids.externalHelp')}
        value={external}
        disabled={isPublished && doi?.provider !== EXTERNAL_PID_PROVIDER}
        required={isRequired}
        autoComplete="off"
        onChange={(event) => {
          setExternal(event.currentTarget.value);
          storeExternal(event.currentTarget.value.trim());
        }}
        onBlur={() => storeExternal.flush()}
      />
    );
  } else if (choice === 'no') {
    answer = reserved ? (
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('depositPids.reservedLabel')}
        </Text>
        <Group gap="xs">
          <Text size="sm" ff="monospace">
            {doi?.identifier}
          </Text>
          {!isPublished && (
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('depositPids.discard')}
              title={t('depositPids.discard')}
              loading={busy === 'discard'}
              disabled={busy !== false}
              onClick={onDiscard}
            >
              <span aria-hidden="true">×</span>
            </ActionIcon>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {t('depositPids.managedHelp')}
        </Text>
      </Stack>
    ) : (
      <Stack gap={4}>
        <Group gap="xs" align="flex-end">
          <TextInput
            label={t('depositPids.externalLabel')}
            value=""
            disabled
            readOnly
            aria-describedby={`${errorId}-managed`}
          />
          <Button
            type="button"
            variant="default"
            loading={busy === 'reserve'}
            disabled={busy !== false}
            onClick={onReserve}
          >
            {t('depositPids.reserve')}
          </Button>
        </Group>
        <Text size="xs" c="dimmed" id={`${errorId}-managed`}>
          {t('depositPids.managedHelp')}
        </Text>
      </Stack>
    );
  } else {
    answer = (
      <TextInput
        label={t('depositPids.externalLabel')}
        value=""
        disabled
        readOnly
        description={t('depositPids.notNeededHelp')}
      />
    );
  }

  return (
    <Fieldset
      variant="unstyled"
      legend={
        <Text component="span" size="sm" fw={500}>
          {t('depositPids.doiLabel')}
          {isRequired && (
            <Text component="span" c="red" aria-hidden="true">
              {' *'}
            </Text>
          )}
        </Text>
      }
      aria-describedby={error ? errorId : undefined}
    >
      <Stack gap="sm">
        {offered.length > 1 && (
          <Radio.Group
            label={t('depositPids.question')}
            value={choice}
            onChange={(value) => choose(value)}
            required={isRequired}
          >
            <Stack gap={4} mt="xs">
              {offered.map((option) => {
                const barred = transitions !== undefined && !transitions.allowed.includes(option);
                return (
                  <Radio
                    key={option}
                    value={option}
                    label={t(`depositPids.${CHOICE_LABEL[option]}`)}
                    disabled={locked || barred}
                    required={isRequired}
                    description={
                      barred && transitions
                        ? t(`depositPids.${transitions.message}`, { siteName })
                        : undefined
                    }
                  />
                );
              })}
            </Stack>
          </Radio.Group>
        )}
        {isPublished && doi?.identifier && (
          <Text size="xs" c="dimmed">
            {t('depositPids.lockedPublished')}
          </Text>
        )}
        {answer}
        {error && <Input.Error id={errorId}>{error}</Input.Error>}
      </Stack>
    </Fieldset>
  );
}
