import { Button, Group, Modal, Stack, TextInput, VisuallyHidden } from '@mantine/core';
import { SAVE_AND_ADD_ANOTHER_FEEDBACK_MS, type CreatorFormValues } from '@cairn/shared';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { AffiliationHit, NameHit, Role } from './api';
import {
  creatorFieldOf,
  creatorSchemaFor,
  fromEditorValues,
  toEditorValues,
  type CreatorEditorValues,
  type CreatorListName,
} from './creator-rules';
import { ruleResolver } from '../rule-resolver';
import { AffiliationsInput, IdentifiersInput, RoleSelect, TypeSwitch } from './CreatorFields';
import { CreatorSearch } from './CreatorSearch';

/**
 * How creators are found (InvenioRDM's `APP_RDM_DEPOSIT_FORM_AUTOCOMPLETE_NAMES`): `search` shows
 * the search above the fields, `search_only` shows the fields once a result or manual entry is
 * chosen, `off` shows the fields only.
 */
export type CreatorMode = 'search' | 'search_only' | 'off';

export interface CreatorModalProps {
  list: CreatorListName;
  opened: boolean;
  /** The creator to edit; undefined adds a new one. */
  creator: CreatorFormValues | undefined;
  creatorMode: CreatorMode;
  roles: readonly Role[];
  onSave: (creator: CreatorFormValues) => void;
  /** Adds the creator and keeps the dialog open, empty, for the next one (add mode only). */
  onSaveAndAddAnother: (creator: CreatorFormValues) => void;
  onClose: () => void;
}

/**
 * The dialog that adds or edits one creator or contributor. It has a form of its own, checked when
 * it is submitted only, so typing in it never touches the deposit form and no row of a long list
 * re-renders until the creator is saved.
 */
export function CreatorModal({ list, opened, creator, onClose, ...rest }: CreatorModalProps) {
  const { t } = useTranslation();
  const isContributor = list === 'metadata.contributors';
  const title = creator
    ? t(isContributor ? 'creators.modal.editContributor' : 'creators.modal.editCreator')
    : t(isContributor ? 'creators.modal.addContributor' : 'creators.modal.addCreator');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size="lg"
      closeButtonProps={{ 'aria-label': t('creators.modal.close') }}
    >
      {/* Mounted only while open, so each opening starts from the creator it was opened for. */}
      {opened && <CreatorEditor list={list} creator={creator} onClose={onClose} {...rest} />}
    </Modal>
  );
}

function CreatorEditor({
  list,
  creator,
  creatorMode,
  roles,
  onSave,
  onSaveAndAddAnother,
  onClose,
}: Omit<CreatorModalProps, 'opened'>) {
  const { t } = useTranslation();
  const isEdit = creator !== undefined;
  const resolver: Resolver<CreatorEditorValues> = (values, context, options) =>
    ruleResolver<CreatorEditorValues>(creatorSchemaFor(list), t, {
      toInput: fromEditorValues,
      fieldOf: creatorFieldOf(values.type),
    })(values, context, options);
  const form = useForm<CreatorEditorValues>({
    defaultValues: toEditorValues(creator),
    mode: 'onSubmit',
    // Checked first on submit (a dialog is checked as a whole), then as the person types: a message about a value
    // already corrected would otherwise stay until the next save.
    reValidateMode: 'onChange',
    resolver,
  });
  const { control, handleSubmit, reset, setValue, formState } = form;
  const type = useWatch({ control, name: 'type' });
  const [hasPicked, setHasPicked] = useState(isEdit);
  const [addedCount, setAddedCount] = useState(0);
  const [showAdded, setShowAdded] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (!showAdded) return undefined;
    const timer = setTimeout(() => setShowAdded(false), SAVE_AND_ADD_ANOTHER_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [showAdded, addedCount]);

  const isPerson = type === 'personal';
  const showSearch = creatorMode !== 'off';
  const showFields = creatorMode !== 'search_only' || hasPicked;

  function pickPerson(hit: NameHit) {
    setValue('family_name', hit.family_name ?? hit.name ?? '');
    setValue('given_name', hit.given_name ?? '');
    setValue('personal', {
      identifiers: hit.identifiers.map((entry) => ({ ...entry })),
      affiliations: uniqueAffiliations(hit.affiliations),
    });
    setHasPicked(true);
  }

  function pickOrganization(hit: AffiliationHit) {
    setValue('name', hit.name);
    setValue('organizational', {
      // GRID is retired and its ids lead nowhere any more: the one scheme a picked organisation's
      // identifiers lose.
      identifiers: hit.identifiers
        .filter((entry) => entry.scheme !== 'grid')
        .map((entry) => ({ ...entry })),
      affiliations: form.getValues('organizational.affiliations'),
    });
    setHasPicked(true);
  }

  function saveAndAddAnother(values: CreatorEditorValues) {
    onSaveAndAddAnother(fromEditorValues(values));
    reset(toEditorValues(undefined));
    setHasPicked(false);
    setAddedCount((count) => count + 1);
    setShowAdded(true);
    // Back to where the next creator starts: the search, or the first name field without one.
    formRef.current?.querySelector<HTMLInputElement>('input[data-autofocus]')?.focus();
  }

  const errors = formState.errors;
  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => {
        // The dialog is portalled out of the deposit form in the DOM but not in React's tree:
        // without this the deposit form would save on every creator saved here.
        event.stopPropagation();
        void handleSubmit((values) => onSave(fromEditorValues(values)))(event);
      }}
    >
      <Stack gap="md">
        <TypeSwitch control={control} />
        {showSearch && (
          <CreatorSearch
            key={`${type}-${addedCount}`}
            type={type}
            onPickPerson={pickPerson}
            onPickOrganization={pickOrganization}
            onManual={creatorMode === 'search_only' ? () => setHasPicked(true) : undefined}
          />
        )}
        {showFields && (
          <>
            {isPerson ? (
              <Group grow align="flex-start">
                <TextInput
                  {...form.register('family_name')}
                  label={t('creators.fields.familyName')}
                  required
                  autoComplete="off"
                  error={errors.family_name?.message}
                  data-autofocus={!showSearch || undefined}
                />
                <TextInput
                  {...form.register('given_name')}
                  label={t('creators.fields.givenNames')}
                  autoComplete="off"
                />
              </Group>
            ) : (
              <TextInput
                {...form.register('name')}
                label={t('creators.fields.organizationName')}
                placeholder={t('creators.fields.organizationNamePlaceholder')}
                required
                autoComplete="off"
                error={errors.name?.message}
                data-autofocus={!showSearch || undefined}
              />
            )}
            <IdentifiersInput
              key={`${type}-identifiers`}
              control={control}
              type={type}
              error={errors[type]?.identifiers?.message}
            />
            <AffiliationsInput key={`${type}-affiliations`} control={control} type={type} />
          </>
        )}
        <RoleSelect control={control} list={list} roles={roles} error={errors.role?.message} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('creators.modal.cancel')}
          </Button>
          {!isEdit && (
            <Button
              variant="light"
              onClick={(event) => void handleSubmit(saveAndAddAnother)(event)}
            >
              {showAdded ? t('creators.modal.added') : t('creators.modal.saveAndAddAnother')}
            </Button>
          )}
          <Button type="submit">{t('creators.modal.save')}</Button>
        </Group>
        <VisuallyHidden aria-live="polite" aria-atomic="true">
          {showAdded ? t('creators.modal.addedStatus') : ''}
        </VisuallyHidden>
      </Stack>
    </form>
  );
}

function uniqueAffiliations(entries: ReadonlyArray<{ id?: string; name?: string }>) {
  const seen = new Set<string>();
  const out: Array<{ id?: string; name: string }> = [];
  for (const entry of entries) {
    const key = entry.id ?? entry.name ?? '';
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(
      entry.id ? { id: entry.id, name: entry.name ?? entry.id } : { name: entry.name ?? '' },
    );
  }
  return out;
}
