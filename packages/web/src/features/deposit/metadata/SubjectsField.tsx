import { Combobox, Pill, PillsInput, Text, useCombobox } from '@mantine/core';
import type { DepositFormValues, SubjectFormValues } from '@cairn/shared';
import { useState } from 'react';
import { useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useItemSuggestions, type ItemHit } from './api';

const EMPTY: SubjectFormValues[] = [];
/** The option that adds what was typed as a free-text keyword. */
const FREE_TEXT = '\u0000free-text';

function isSame(a: SubjectFormValues, b: SubjectFormValues): boolean {
  return a.id !== undefined || b.id !== undefined
    ? a.id === b.id
    : a.subject.toLowerCase() === b.subject.toLowerCase();
}

/**
 * `metadata.subjects`: keywords and subjects. Suggestions come from `/api/subjects` (typing
 * `MeSH:cell` suggests from one scheme); anything else typed is added as a free-text keyword with
 * Enter or the "Add" option (InvenioRDM needs the mouse for that).
 */
export function SubjectsField() {
  const { t } = useTranslation();
  const {
    field: { value, onChange, onBlur },
    fieldState,
  } = useController<DepositFormValues, 'metadata.subjects'>({ name: 'metadata.subjects' });
  const subjects = Array.isArray(value) ? value : EMPTY;
  const [search, setSearch] = useState('');
  const combobox = useCombobox({
    onDropdownClose: () => combobox.resetSelectedOption(),
  });
  const suggestions = useItemSuggestions('subjects', search);
  const hits = (suggestions.data?.hits ?? []).filter(
    (hit) => !subjects.some((subject) => subject.id === hit.id),
  );
  const typed = search.trim();

  function add(subject: SubjectFormValues) {
    if (!subjects.some((existing) => isSame(existing, subject))) onChange([...subjects, subject]);
    setSearch('');
  }

  function handleOptionSubmit(optionValue: string) {
    if (optionValue === FREE_TEXT) {
      if (typed) add({ subject: typed });
      return;
    }
    const hit: ItemHit | undefined = hits.find((entry) => entry.id === optionValue);
    if (hit) add({ id: hit.id, subject: hit.subject ?? hit.id });
  }

  return (
    <Combobox store={combobox} onOptionSubmit={handleOptionSubmit}>
      <Combobox.DropdownTarget>
        <PillsInput
          label={t('metadata.subjects.label')}
          description={t('metadata.subjects.help')}
          error={fieldState.error?.message}
          onClick={() => combobox.openDropdown()}
        >
          <Pill.Group>
            {subjects.map((subject, index) => (
              <Pill
                key={subject.id ?? `text:${subject.subject}`}
                withRemoveButton
                // Mantine hides the remove button from the keyboard and screen readers; it is the
                // only way to remove a subject other than the last one, so it is offered to both.
                removeButtonProps={{
                  'aria-label': t('metadata.subjects.remove', { subject: subject.subject }),
                  'aria-hidden': false,
                  tabIndex: 0,
                }}
                onRemove={() => onChange(subjects.filter((_, i) => i !== index))}
              >
                {subject.subject}
              </Pill>
            ))}
            <Combobox.EventsTarget>
              <PillsInput.Field
                value={search}
                placeholder={t('metadata.subjects.placeholder')}
                onFocus={() => combobox.openDropdown()}
                onBlur={() => {
                  combobox.closeDropdown();
                  onBlur();
                }}
                onChange={(event) => {
                  combobox.openDropdown();
                  combobox.updateSelectedOptionIndex();
                  setSearch(event.currentTarget.value);
                }}
                onKeyDown={(event) => {
                  if (event.key === 'Backspace' && search === '' && subjects.length > 0) {
                    event.preventDefault();
                    onChange(subjects.slice(0, -1));
                  }
                  // Enter with no option highlighted adds the text as typed.
                  if (event.key === 'Enter' && typed && combobox.getSelectedOptionIndex() < 0) {
                    event.preventDefault();
                    add({ subject: typed });
                  }
                }}
              />
            </Combobox.EventsTarget>
          </Pill.Group>
        </PillsInput>
      </Combobox.DropdownTarget>
      <Combobox.Dropdown hidden={typed === ''}>
        <Combobox.Options>
          {hits.map((hit) => (
            <Combobox.Option value={hit.id} key={hit.id}>
              {hit.scheme && (
                <>
                  <Text span size="xs" c="dimmed">
                    ({hit.scheme})
                  </Text>{' '}
                </>
              )}
              {hit.subject ?? hit.id}
            </Combobox.Option>
          ))}
          {typed && (
            <Combobox.Option value={FREE_TEXT}>
              {t('metadata.subjects.addFreeText', { text: typed })}
            </Combobox.Option>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
