import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Radio,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SAVE_AND_ADD_ANOTHER_FEEDBACK_MS, type CreatorFormValues } from '@cairn/shared';
import { useEffect, useRef, useState } from 'react';
import { useController, useForm, useWatch, type Control, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  useAffiliationSuggestions,
  useNameSuggestions,
  type AffiliationHit,
  type NameHit,
  type Role,
} from './api';
import {
  creatorFieldOf,
  creatorSchemaFor,
  detectPersonOrOrgScheme,
  fromEditorValues,
  toEditorValues,
  type CreatorEditorValues,
  type CreatorListName,
  type CreatorType,
} from './creator-rules';
import { ruleResolver } from '../rule-resolver';
import { SuggestionSearch } from './SuggestionSearch';

/**
 * How creators are found (InvenioRDM's `APP_RDM_DEPOSIT_FORM_AUTOCOMPLETE_NAMES`): `search` shows
 * the search above the fields, `search_only` shows the fields once a result or manual entry is
 * chosen, `off` shows the fields only.
 */
export type CreatorMode = 'search' | 'search_only' | 'off';

/** Typing pauses this long before a suggestion request leaves. */
const SUGGEST_DEBOUNCE_MS = 250;

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

function TypeSwitch({ control }: { control: Control<CreatorEditorValues> }) {
  const { t } = useTranslation();
  const { field } = useController({ control, name: 'type' });
  return (
    <Radio.Group
      label={t('creators.fields.type')}
      value={field.value}
      onChange={(value) => field.onChange(value)}
    >
      <Group mt="xs">
        <Radio value="personal" label={t('creators.fields.person')} />
        <Radio value="organizational" label={t('creators.fields.organization')} />
      </Group>
    </Radio.Group>
  );
}

/** One suggestion, person or organisation, as the search shows it and what picking it does. */
interface SearchHit {
  key: string;
  title: string;
  details: string[];
  identifiers: ReadonlyArray<{ scheme: string; identifier: string }>;
  pick: () => void;
}

/**
 * The search above the fields: people through `/api/names`, organisations through
 * `/api/affiliations` (search-first for both, organisations too: a picked one brings its
 * identifiers, which a typed name lacks).
 */
function CreatorSearch({
  type,
  onPickPerson,
  onPickOrganization,
  onManual,
}: {
  type: CreatorType;
  onPickPerson: (hit: NameHit) => void;
  onPickOrganization: (hit: AffiliationHit) => void;
  /** Offered as "enter manually" in `search_only` mode, where the fields start hidden. */
  onManual: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SUGGEST_DEBOUNCE_MS);
  const isPerson = type === 'personal';
  // An empty query asks for nothing, so only the search of the chosen type runs.
  const people = useNameSuggestions(isPerson ? debounced : '');
  const organizations = useAffiliationSuggestions(isPerson ? '' : debounced);
  const search = isPerson ? people : organizations;
  const hits: SearchHit[] =
    debounced === ''
      ? []
      : isPerson
        ? (people.data ?? []).map((hit) => ({
            key: hit.id,
            title: [hit.family_name, hit.given_name].filter(Boolean).join(', ') || hit.name || '',
            details: hit.affiliations.map((a) => a.name ?? a.id ?? ''),
            identifiers: hit.identifiers,
            pick: () => onPickPerson(hit),
          }))
        : (organizations.data ?? []).map((hit) => ({
            ...organizationSummary(hit),
            key: hit.id,
            pick: () => onPickOrganization(hit),
          }));
  return (
    <SuggestionSearch
      label={isPerson ? t('creators.search.personLabel') : t('creators.search.organizationLabel')}
      placeholder={
        isPerson
          ? t('creators.search.personPlaceholder')
          : t('creators.search.organizationPlaceholder')
      }
      query={query}
      onQueryChange={setQuery}
      hits={hits}
      isFetching={search.isFetching}
      isError={search.isError}
      hitKey={(hit) => hit.key}
      renderHit={(hit) => <HitSummary {...hit} />}
      onPick={(hit) => {
        setQuery('');
        hit.pick();
      }}
      extraOptions={onManual ? [{ value: 'manual', label: t('creators.search.manual') }] : []}
      onExtra={onManual}
      data-autofocus
    />
  );
}

/** An organisation as a suggestion reads: name (acronym), then where it is. */
function organizationSummary(hit: AffiliationHit) {
  const place = [hit.location_name, hit.country_name].filter(Boolean).join(', ');
  return {
    title: hit.acronym ? `${hit.name} (${hit.acronym})` : hit.name,
    details: place ? [place] : [],
    identifiers: hit.identifiers,
  };
}

/** One suggestion: the name, then what tells namesakes apart (affiliations, identifiers). */
function HitSummary({
  title,
  details,
  identifiers,
}: {
  title: string;
  details: readonly string[];
  identifiers: ReadonlyArray<{ scheme: string; identifier: string }>;
}) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={500}>
        {title}
      </Text>
      {details.length > 0 && (
        <Text size="xs" c="dimmed">
          {details.join('; ')}
        </Text>
      )}
      {identifiers.length > 0 && (
        <Text size="xs" c="dimmed">
          {identifiers
            .map((entry) => `${entry.scheme.toUpperCase()} ${entry.identifier}`)
            .join(' · ')}
        </Text>
      )}
    </Stack>
  );
}

function IdentifiersInput({
  control,
  type,
  error,
}: {
  control: Control<CreatorEditorValues>;
  type: CreatorType;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const { field } = useController({ control, name: `${type}.identifiers` });
  const entries = field.value;
  return (
    <TagsInput
      label={t('creators.fields.identifiers')}
      description={t('creators.fields.identifiersHelp')}
      placeholder={
        type === 'personal'
          ? t('creators.fields.personIdentifiersPlaceholder')
          : t('creators.fields.organizationIdentifiersPlaceholder')
      }
      value={entries.map((entry) => entry.identifier)}
      onChange={(values) =>
        field.onChange(
          values.map((identifier) => {
            // A known entry keeps the scheme it came with (search result or saved creator).
            const known = entries.find((entry) => entry.identifier === identifier);
            return known ?? { scheme: detectPersonOrOrgScheme(identifier), identifier };
          }),
        )
      }
      error={error}
    />
  );
}

function AffiliationsInput({
  control,
  type,
}: {
  control: Control<CreatorEditorValues>;
  type: CreatorType;
}) {
  const { t } = useTranslation();
  const { field } = useController({ control, name: `${type}.affiliations` });
  const affiliations = field.value;
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, SUGGEST_DEBOUNCE_MS);
  const { data = [], isFetching, isError } = useAffiliationSuggestions(debounced);
  const typed = query.trim();

  function add(entry: { id?: string; name: string }) {
    setQuery('');
    const key = entry.id ?? entry.name;
    if (affiliations.some((a) => (a.id ?? a.name) === key)) return;
    field.onChange([...affiliations, entry]);
  }

  return (
    <Stack gap={6}>
      <SuggestionSearch
        label={t('creators.fields.affiliations')}
        placeholder={t('creators.fields.affiliationsPlaceholder')}
        query={query}
        onQueryChange={setQuery}
        hits={debounced === '' ? [] : data}
        isFetching={isFetching}
        isError={isError}
        hitKey={(hit) => hit.id}
        renderHit={(hit) => <HitSummary {...organizationSummary(hit)} />}
        onPick={(hit) => add({ id: hit.id, name: hit.name })}
        extraOptions={
          typed === ''
            ? []
            : [{ value: typed, label: t('creators.fields.addFreeText', { name: typed }) }]
        }
        onExtra={(name) => add({ name })}
      />
      {affiliations.length > 0 && (
        <Group gap="xs" role="list" aria-label={t('creators.fields.chosenAffiliations')}>
          {affiliations.map((affiliation, index) => (
            <Badge
              key={affiliation.id ?? `name:${affiliation.name}`}
              role="listitem"
              variant="light"
              tt="none"
              rightSection={
                <ActionIcon
                  size="xs"
                  variant="transparent"
                  aria-label={t('creators.fields.removeAffiliation', { name: affiliation.name })}
                  onClick={() => field.onChange(affiliations.filter((_, i) => i !== index))}
                >
                  ×
                </ActionIcon>
              }
            >
              {affiliation.name}
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}

function RoleSelect({
  control,
  list,
  roles,
  error,
}: {
  control: Control<CreatorEditorValues>;
  list: CreatorListName;
  roles: readonly Role[];
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const { field } = useController({ control, name: 'role' });
  const isRequired = list === 'metadata.contributors';
  return (
    <Select
      label={t('creators.fields.role')}
      placeholder={t('creators.fields.rolePlaceholder')}
      data={roles.map((role) => ({ value: role.id, label: role.label }))}
      value={field.value === '' ? null : field.value}
      onChange={(value) => field.onChange(value ?? '')}
      clearable={!isRequired}
      required={isRequired}
      searchable
      error={error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
