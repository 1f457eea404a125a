import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PublicConfigSchema } from '@cairn/shared';
import { buildDraft } from '../../../test/builders';
import { descriptionOf } from '../../../test/renderApp';
import { renderInDepositForm } from '../../../test/renderInDepositForm';
import { createDraftValues } from '../draft-values';
import { ComingSoonField } from './ComingSoonField';
import { CustomFieldsSections } from './CustomFieldsSections';

function group(name: string): HTMLElement {
  return screen.getByRole('group', { name });
}

describe('CustomFieldsSections', () => {
  it('shows the imprint, journal, conference and thesis groups with their fields', () => {
    renderInDepositForm(<CustomFieldsSections />);
    const labels = (name: string) =>
      within(group(name))
        .getAllByRole('textbox')
        .map((input) => input.getAttribute('name'));
    expect(labels('Imprint')).toEqual([
      'custom_fields.imprint:imprint.title',
      'custom_fields.imprint:imprint.isbn',
      'custom_fields.imprint:imprint.place',
      'custom_fields.imprint:imprint.pages',
      'custom_fields.imprint:imprint.edition',
    ]);
    expect(labels('Journal')).toHaveLength(5);
    expect(labels('Thesis')).toHaveLength(5);
    expect(within(group('Conference')).getByRole('textbox', { name: 'Acronym' })).toBeTruthy();
    expect(
      within(group('Thesis'))
        .getByRole('textbox', { name: 'Date defended' })
        .getAttribute('placeholder'),
    ).toBe('YYYY-MM-DD');
  });

  it('shows what the instance configures, in its order, "Coming soon" placeholders included', () => {
    const config = PublicConfigSchema.parse({
      customFieldsUi: [
        { field: 'thesis:thesis' },
        {
          field: 'cern:experiment',
          ui_widget: 'ComingSoonField',
          props: { label: 'Experiment', description: 'The experiment that took the data.' },
        },
        { field: 'journal:journal' },
      ],
    });
    const { form } = renderInDepositForm(<CustomFieldsSections />, { bootstrap: { config } });
    const legends = screen
      .getAllByRole('group')
      .filter((element) => element.parentElement?.closest('[role="group"]') === null)
      .map((element) => element.querySelector('legend')?.textContent);
    expect(legends).toEqual(['Thesis', 'ExperimentComing soon', 'Journal']);
    expect(screen.queryByRole('group', { name: 'Imprint' })).toBeNull();
    const placeholder = group('ExperimentComing soon');
    expect(within(placeholder).getByText('The experiment that took the data.')).toBeTruthy();
    expect(within(placeholder).queryByRole('textbox')).toBeNull();
    // A placeholder holds no value: nothing of it is sent with the draft.
    expect(Object.keys(form.getValues('custom_fields'))).not.toContain('cern:experiment');
  });

  it('leaves a form opened from a draft as it was loaded until someone types', () => {
    const loaded = createDraftValues(buildDraft(), { defaultLocale: 'en' }, '');
    const { form } = renderInDepositForm(<CustomFieldsSections />, {
      values: { custom_fields: loaded.custom_fields },
    });
    // A difference would make every field's dirty state be recomputed on each edit.
    expect(form.getValues('custom_fields')).toStrictEqual(loaded.custom_fields);
  });

  it('binds each input to custom_fields by group and field', () => {
    const { form } = renderInDepositForm(<CustomFieldsSections />, {
      values: { custom_fields: { 'journal:journal': { title: 'Nature', volume: '12' } } },
    });
    const journal = group('Journal');
    expect(
      within(journal).getByRole<HTMLInputElement>('textbox', { name: 'Journal title' }).value,
    ).toBe('Nature');
    fireEvent.change(within(journal).getByRole('textbox', { name: 'Issue' }), {
      target: { value: '3' },
    });
    fireEvent.change(
      within(group('Thesis')).getByRole('textbox', { name: 'Awarding university' }),
      {
        target: { value: 'ETH Zürich' },
      },
    );
    expect(form.getValues('custom_fields')).toMatchObject({
      'journal:journal': { title: 'Nature', volume: '12', issue: '3' },
      'thesis:thesis': { university: 'ETH Zürich' },
    });
  });

  it('shows the server’s error on the field and keeps the typed value', () => {
    const { form } = renderInDepositForm(
      <CustomFieldsSections fields={[{ field: 'journal:journal' }]} />,
      {
        values: { custom_fields: { 'journal:journal': { issn: '1234-567X' } } },
      },
    );
    act(() =>
      form.setError('custom_fields.journal:journal.issn', {
        message: 'Please provide a valid ISSN.',
      }),
    );
    const issn = screen.getByRole<HTMLInputElement>('textbox', { name: 'ISSN' });
    expect(descriptionOf(issn)).toContain('Please provide a valid ISSN.');
    expect(issn.value).toBe('1234-567X');
    expect(screen.queryByRole('group', { name: 'Imprint' })).toBeNull();
  });

  it('adds and removes the conference’s identifiers', () => {
    const { form } = renderInDepositForm(
      <CustomFieldsSections fields={[{ field: 'meeting:meeting' }]} />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add identifier' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add identifier' }));
    const identifiers = screen.getAllByRole('textbox', { name: 'Identifier' });
    fireEvent.change(identifiers[0]!, { target: { value: 'https://example.org/conf' } });
    fireEvent.change(screen.getAllByRole('textbox', { name: 'Scheme' })[0]!, {
      target: { value: 'url' },
    });
    fireEvent.change(identifiers[1]!, { target: { value: '10.1/conf' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove identifier 2' }));
    expect(form.getValues('custom_fields.meeting:meeting.identifiers')).toEqual([
      { scheme: 'url', identifier: 'https://example.org/conf' },
    ]);
  });

  it('speaks German', () => {
    renderInDepositForm(<CustomFieldsSections />, { language: 'de' });
    expect(group('Zeitschrift')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Verleihende Hochschule' })).toBeTruthy();
  });
});

describe('ComingSoonField', () => {
  it('announces a field that cannot be filled in yet', () => {
    renderInDepositForm(<ComingSoonField label="Locations" help="Where the data was collected." />);
    const field = screen.getByRole('group', { name: /Locations/ });
    expect(within(field).getByText('Coming soon')).toBeTruthy();
    expect(within(field).getByText('Where the data was collected.')).toBeTruthy();
    expect(field.hasAttribute('disabled')).toBe(true);
    expect(within(field).queryByRole('textbox')).toBeNull();
  });

  it('speaks German', () => {
    renderInDepositForm(<ComingSoonField label="Orte" />, { language: 'de' });
    expect(screen.getByText('Demnächst verfügbar')).toBeTruthy();
  });
});
