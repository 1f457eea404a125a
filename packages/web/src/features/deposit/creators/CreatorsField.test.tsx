import {
  act,
  fireEvent,
  render,
  screen,
  waitFor,
  within,
  type RenderResult,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  SAVE_AND_ADD_ANOTHER_FEEDBACK_MS,
  type CreatorFormValues,
  type DepositFormValues,
} from '@cairn/shared';
import { useEffect } from 'react';
import { FormProvider, useForm, type UseFormReturn } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/AppProviders';
import { createQueryClient } from '../../../app/query-client';
import { createI18n } from '../../../i18n/i18n';
import { buildBootstrap } from '../../../test/builders';
import type { RecordedRequest } from '../../../test/fetch';
import type * as RolesApi from './api';
import { useRoleLabel } from './api';
import type { CreatorMode } from './CreatorModal';
import type { CreatorListName } from './creator-rules';
import { CreatorsField } from './CreatorsField';
import { stubFetchWithVocabularies } from './test-responses';

// Passed through unchanged; its calls tell which rows rendered (a row looks its role up once a
// render).
vi.mock('./api', async (importOriginal) => {
  const actual = await importOriginal<typeof RolesApi>();
  return { ...actual, useRoleLabel: vi.fn(actual.useRoleLabel) };
});

function person(family: string, given = '', extra: Partial<CreatorFormValues> = {}) {
  return {
    person_or_org: {
      type: 'personal' as const,
      family_name: family,
      given_name: given,
      name: '',
      identifiers: [],
    },
    role: '',
    affiliations: [],
    ...extra,
  };
}

function organisation(name: string): CreatorFormValues {
  return {
    person_or_org: {
      type: 'organizational',
      family_name: '',
      given_name: '',
      name,
      identifiers: [],
    },
    role: '',
    affiliations: [],
  };
}

interface Rendered extends RenderResult {
  values: () => CreatorFormValues[];
  form: () => UseFormReturn<DepositFormValues>;
  outerSubmit: ReturnType<typeof vi.fn>;
  requests: RecordedRequest[];
  allRequests: () => string[];
}

function renderField({
  name = 'metadata.creators',
  creators = [],
  contributors = [],
  creatorMode,
  language = 'en',
}: {
  name?: CreatorListName;
  creators?: CreatorFormValues[];
  contributors?: CreatorFormValues[];
  creatorMode?: CreatorMode;
  language?: string;
} = {}): Rendered {
  const requests = stubFetchWithVocabularies();
  const fetchMock = vi.mocked(fetch);
  const handle: { form?: UseFormReturn<DepositFormValues> } = {};
  const outerSubmit = vi.fn();
  function Harness() {
    const form = useForm<DepositFormValues>({
      defaultValues: { metadata: { creators, contributors } } as unknown as DepositFormValues,
    });
    useEffect(() => {
      handle.form = form;
    }, [form]);
    return (
      <FormProvider {...form}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            outerSubmit();
          }}
        >
          <CreatorsField name={name} {...(creatorMode ? { creatorMode } : {})} />
        </form>
      </FormProvider>
    );
  }
  const result = render(
    <AppProviders
      bootstrap={buildBootstrap()}
      queryClient={createQueryClient()}
      i18n={createI18n(language)}
      env="test"
    >
      <Harness />
    </AppProviders>,
  );
  const form = () => {
    if (!handle.form) throw new Error('form not rendered');
    return handle.form;
  };
  return {
    ...result,
    form,
    values: () => form().getValues(name),
    outerSubmit,
    requests,
    allRequests: () =>
      fetchMock.mock.calls.map(([input]) =>
        input instanceof Request ? input.url : input.toString(),
      ),
  };
}

/** What the live regions (ours and dnd-kit's) have announced last. */
function announcements(): string[] {
  return [...document.querySelectorAll('[aria-live]')].map((region) => region.textContent ?? '');
}

function dialog() {
  return screen.getByRole('dialog');
}

function rows() {
  return screen.queryAllByRole('listitem').filter((item) => item.hasAttribute('aria-posinset'));
}

async function openAddDialog(user: ReturnType<typeof userEvent.setup>, label = 'Add creator') {
  await user.click(screen.getByRole('button', { name: label }));
  return dialog();
}

describe('CreatorsField: the list', () => {
  it('shows each entry with its name, type, role, affiliations and identifier links', async () => {
    renderField({
      creators: [
        person('Lovelace', 'Ada', {
          role: 'researcher',
          affiliations: [{ id: '01ggx4157', name: 'CERN' }, { name: 'Analytical Society' }],
          person_or_org: {
            type: 'personal',
            family_name: 'Lovelace',
            given_name: 'Ada',
            name: '',
            identifiers: [
              { scheme: 'orcid', identifier: '0000-0002-1825-0097' },
              { scheme: 'gnd', identifier: 'gnd:118640445' },
              { scheme: 'isni', identifier: '0000000121032683' },
            ],
          },
        }),
        {
          ...organisation('CERN'),
          person_or_org: {
            ...organisation('CERN').person_or_org,
            identifiers: [{ scheme: 'ror', identifier: '01ggx4157' }],
          },
        },
      ],
    });

    const [ada, cern] = rows();
    if (!ada || !cern) throw new Error('rows missing');
    expect(ada.textContent).toContain('Lovelace, Ada');
    expect(ada.textContent).toContain('Person');
    expect(ada.textContent).toContain('CERN; Analytical Society');
    // The role's label arrives from GET /api/vocabularies/creatorsroles.
    await within(ada).findByText('Researcher');
    const orcid = within(ada).getByRole('link', { name: /^ORCID iD 0000-0002-1825-0097/ });
    expect(orcid.getAttribute('href')).toBe('https://orcid.org/0000-0002-1825-0097');
    // What is seen ("iD") is part of what is heard, so a voice user can say it (WCAG 2.5.3).
    expect(orcid.getAttribute('aria-label')).toContain(orcid.textContent);
    expect(orcid.getAttribute('target')).toBe('_blank');
    expect(
      within(ada)
        .getByRole('link', { name: /^GND 118640445/ })
        .getAttribute('href'),
    ).toBe('https://d-nb.info/gnd/118640445');
    // Other schemes are not linked from the list.
    expect(within(ada).queryByRole('link', { name: /ISNI/ })).toBeNull();
    expect(cern.textContent).toContain('Organization');
    expect(
      within(cern)
        .getByRole('link', { name: /^ROR 01ggx4157/ })
        .getAttribute('href'),
    ).toBe('https://ror.org/01ggx4157');
    expect(ada.getAttribute('aria-setsize')).toBe('2');
  });

  it('asks for no role vocabulary while no entry has a role and the dialog is closed', () => {
    const { allRequests } = renderField({ creators: [person('Lovelace', 'Ada')] });
    expect(allRequests()).toEqual([]);
  });

  it('removes an entry and says so', async () => {
    const user = userEvent.setup();
    const { values } = renderField({ creators: [person('Lovelace', 'Ada'), person('Hopper')] });

    await user.click(screen.getByRole('button', { name: 'Remove Lovelace, Ada' }));

    expect(values().map((c) => c.person_or_org.family_name)).toEqual(['Hopper']);
    expect(announcements()).toContain('Removed Lovelace, Ada.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add creator' }));
  });

  it('shows a server error of an entry on its row', async () => {
    const { form } = renderField({ creators: [person('Lovelace', 'Ada'), person('')] });
    act(() =>
      form().setError('metadata.creators.1.person_or_org.family_name', {
        message: 'Family name cannot be blank.',
      }),
    );
    await waitFor(() => expect(rows()[1]?.textContent).toContain('Family name cannot be blank.'));
    expect(rows()[1]?.textContent).toContain('(no name)');
    expect(rows()[0]?.textContent).not.toContain('cannot be blank');
  });

  it('moves the server error of an entry with it when the list is reordered or shortened', async () => {
    const user = userEvent.setup();
    const { form } = renderField({
      creators: [person('Lovelace'), person('Hopper'), person('', 'Grace')],
    });
    act(() =>
      form().setError('metadata.creators.2.person_or_org.family_name', {
        message: 'Family name cannot be blank.',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Move Grace up' }));
    await user.click(screen.getByRole('button', { name: 'Remove Lovelace' }));

    await waitFor(() => expect(rows()[0]?.textContent).toContain('Family name cannot be blank.'));
    expect(rows()[1]?.textContent).not.toContain('cannot be blank');
    expect(
      form().getFieldState('metadata.creators.0.person_or_org.family_name').error?.message,
    ).toBe('Family name cannot be blank.');
  });

  it('shows an error on the list itself', async () => {
    const { form } = renderField();
    act(() =>
      form().setError('metadata.creators', { message: 'Missing data for required field.' }),
    );
    expect((await screen.findByText('Missing data for required field.')).textContent).toBeTruthy();
  });
});

describe('CreatorsField: reordering', () => {
  it('moves an entry down and up with the keyboard on its move buttons, announcing each move', async () => {
    const user = userEvent.setup();
    const { values } = renderField({
      creators: [person('Lovelace'), person('Hopper'), person('Hamilton')],
    });
    const names = () => values().map((c) => c.person_or_org.family_name);

    screen.getByRole('button', { name: 'Move Lovelace down' }).focus();
    await user.keyboard('{Enter}');

    expect(names()).toEqual(['Hopper', 'Lovelace', 'Hamilton']);
    expect(announcements()).toContain('Moved Lovelace to position 2 of 3.');
    // Focus stays on the button, on the moved row, so the next press moves it again.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Lovelace down' }));
    await user.keyboard('{Enter}');
    expect(names()).toEqual(['Hopper', 'Hamilton', 'Lovelace']);
    expect(
      screen.getByRole('button', { name: 'Move Lovelace down' }).hasAttribute('disabled'),
    ).toBe(true);

    screen.getByRole('button', { name: 'Move Hopper up' }).focus();
    expect(screen.getByRole('button', { name: 'Move Hopper up' }).hasAttribute('disabled')).toBe(
      true,
    );
    screen.getByRole('button', { name: 'Move Hamilton up' }).focus();
    await user.keyboard(' ');
    expect(names()).toEqual(['Hamilton', 'Hopper', 'Lovelace']);
  });

  it('reorders with the drag handle by keyboard (space, arrow down, space)', async () => {
    const user = userEvent.setup();
    // jsdom lays nothing out: rows report the box the virtualiser gives them.
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
      this: HTMLElement,
    ) {
      const row = this.closest<HTMLElement>('[aria-posinset]');
      const top = row ? parseFloat(row.style.top) : 0;
      const height = row ? parseFloat(row.style.height) : 0;
      return new DOMRect(0, top, 600, height);
    });
    const { values } = renderField({
      creators: [person('Lovelace'), person('Hopper'), person('Hamilton')],
    });
    const handle = screen.getByRole('button', { name: 'Reorder Lovelace' });
    expect(handle.getAttribute('aria-roledescription')).toBe('sortable');
    expect(
      document.getElementById(handle.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toContain('press space or enter');

    handle.focus();
    await user.keyboard(' ');
    // Picked up: dnd-kit announces where it is, then where it hovers.
    await waitFor(() => expect(announcements()).toContain('Lovelace is over position 1 of 3.'));
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(announcements()).toContain('Lovelace is over position 2 of 3.'));
    await user.keyboard(' ');

    await waitFor(() =>
      expect(values().map((c) => c.person_or_org.family_name)).toEqual([
        'Hopper',
        'Lovelace',
        'Hamilton',
      ]),
    );
    expect(announcements()).toContain('Lovelace was dropped at position 2 of 3.');
  });
});

describe('CreatorsField: the filter', () => {
  const many = (count: number) =>
    Array.from({ length: count }, (_, i) => person(`Person${String(i).padStart(5, '0')}`));

  it('appears only above the threshold of 10 entries', () => {
    renderField({ creators: many(10) });
    expect(screen.queryByRole('searchbox', { name: 'Filter creators' })).toBeNull();
  });

  it('matches names and affiliations regardless of case and accents, with a counter', async () => {
    renderField({
      creators: [
        ...many(10),
        person('Müller', 'Jürgen'),
        person('Nakamura', 'Aiko', { affiliations: [{ name: 'Université de Genève' }] }),
      ],
    });
    const filter = screen.getByRole('searchbox', { name: 'Filter creators' });
    expect(screen.getByText('12 / 12')).toBeTruthy();

    fireEvent.change(filter, { target: { value: 'muller' } });
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]?.textContent).toContain('Müller, Jürgen');
    expect(screen.getByText('1 / 12')).toBeTruthy();
    // Neighbours on screen are not neighbours in the list: no reordering while filtering.
    expect(screen.queryByRole('button', { name: /^Move Müller/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Reorder/ })).toBeNull();

    fireEvent.change(filter, { target: { value: 'GENEVE' } });
    await waitFor(() => expect(rows()[0]?.textContent).toContain('Nakamura, Aiko'));

    fireEvent.change(filter, { target: { value: 'nobody' } });
    expect(await screen.findByText('No entry matches the filter.')).toBeTruthy();
  });

  it('edits and removes the right entry from a filtered view', async () => {
    const user = userEvent.setup();
    const { values } = renderField({ creators: [...many(10), person('Müller', 'Jürgen')] });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter creators' }), {
      target: { value: 'müller' },
    });
    await waitFor(() => expect(rows()).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Remove Müller, Jürgen' }));

    expect(values()).toHaveLength(10);
    expect(values().some((c) => c.person_or_org.family_name === 'Müller')).toBe(false);
  });
});

describe('CreatorsField: rows coming into view', () => {
  it('do not copy the form state, however many dirty flags it holds', async () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      person(`Person${String(i).padStart(5, '0')}`),
    );
    const { form } = renderField({ creators: many.slice(0, 10) });
    // What an import leaves behind: entries unlike the form's defaults, which React Hook Form
    // flags field by field as dirty once any field is compared with its default again.
    act(() => form().setValue('metadata.creators', many, { shouldDirty: true }));
    const { control } = form();
    let walks = 0;
    control._formState.dirtyFields = new Proxy(control._formState.dirtyFields, {
      ownKeys: (target) => {
        walks += 1;
        return Reflect.ownKeys(target);
      },
    });

    const filter = await screen.findByRole('searchbox', { name: 'Filter creators' });
    fireEvent.change(filter, { target: { value: 'person00050' } });
    await waitFor(() => expect(rows()[0]?.textContent).toContain('Person00050'));
    fireEvent.change(filter, { target: { value: '' } });
    await waitFor(() => expect(rows()[0]?.textContent).toContain('Person00000'));

    expect(walks).toBe(0);
  });

  it('still show an error set while they were out of view', async () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      person(`Person${String(i).padStart(5, '0')}`),
    );
    const { form } = renderField({ creators: many });
    act(() =>
      form().setError('metadata.creators.50.person_or_org.family_name', {
        message: 'Family name cannot be blank.',
      }),
    );
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter creators' }), {
      target: { value: 'person00050' },
    });
    await waitFor(() => expect(rows()[0]?.textContent).toContain('Family name cannot be blank.'));
    act(() => form().clearErrors('metadata.creators.50'));
    await waitFor(() => expect(rows()[0]?.textContent).not.toContain('cannot be blank'));
  });
});

describe('CreatorsField: 10,000 entries', () => {
  // jsdom is slow to build 10,000 entries; the time limit is jsdom's, not a figure (see bench/form).
  it(
    'renders only the rows in view, and the filter still finds the last entry',
    { timeout: 60_000 },
    async () => {
      const creators = Array.from({ length: 10_000 }, (_, i) => person(`Family${i}`, `Given${i}`));
      renderField({ creators });

      const rendered = rows();
      expect(rendered.length).toBeGreaterThan(0);
      expect(rendered.length).toBeLessThan(20);
      expect(rendered[0]?.getAttribute('aria-setsize')).toBe('10000');
      expect(screen.getByText('10,000 / 10,000')).toBeTruthy();

      fireEvent.change(screen.getByRole('searchbox', { name: 'Filter creators' }), {
        target: { value: 'family9999' },
      });
      await waitFor(() => expect(rows()).toHaveLength(1));
      expect(rows()[0]?.textContent).toContain('Family9999, Given9999');
      expect(rows()[0]?.getAttribute('aria-posinset')).toBe('10000');
    },
  );
});

describe('CreatorsField: rows that did not change', () => {
  it('are not rendered again when another field or another entry changes', async () => {
    const user = userEvent.setup();
    const roles = ['editor', 'contactperson', 'researcher'];
    const { form } = renderField({
      creators: roles.map((role, i) => person(`Family${i}`, `Given${i}`, { role })),
    });
    // Every row renders again once the roles' labels arrive.
    await screen.findByText('Contact person');
    const rendered = () => vi.mocked(useRoleLabel).mock.calls.map(([, role]) => role);
    vi.mocked(useRoleLabel).mockClear();

    act(() => form().setValue('metadata.title', 'Glacier melt', { shouldDirty: true }));
    act(() => form().setValue('metadata.publisher', 'Zenodo'));
    expect(rendered()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Edit Family2, Given2' }));
    expect(rendered()).toEqual([]);
    const given = within(dialog()).getByRole('textbox', { name: 'Given names' });
    await user.clear(given);
    await user.type(given, 'Grace');
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(rows()[2]?.textContent).toContain('Family2, Grace');
    expect(new Set(rendered())).toEqual(new Set(['researcher']));
  });
});

describe('CreatorsField: the dialog', () => {
  it('validates on submit first, then as corrected: a person needs a family name', async () => {
    const user = userEvent.setup();
    const { values, outerSubmit } = renderField();
    const modal = await openAddDialog(user);
    expect(within(modal).getByRole('heading', { name: 'Add creator' })).toBeTruthy();

    const familyName = within(modal).getByRole('textbox', { name: 'Family name' });
    await user.click(familyName);
    await user.tab();
    expect(within(modal).queryByText('Family name is a required field.')).toBeNull();

    await user.click(within(modal).getByRole('button', { name: 'Save' }));

    expect(await within(modal).findByText('Family name is a required field.')).toBeTruthy();
    expect(familyName.getAttribute('aria-invalid')).toBe('true');
    expect(values()).toEqual([]);
    expect(outerSubmit).not.toHaveBeenCalled();

    // Once shown, the message is checked again as the person types, and goes once corrected.
    await user.type(familyName, 'Lovelace');
    await waitFor(() =>
      expect(within(modal).queryByText('Family name is a required field.')).toBeNull(),
    );
    expect(familyName.getAttribute('aria-invalid')).not.toBe('true');
    await user.type(within(modal).getByRole('textbox', { name: 'Given names' }), 'Ada');
    await user.click(within(modal).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(values()).toEqual([person('Lovelace', 'Ada')]);
    expect(outerSubmit).not.toHaveBeenCalled();
    expect(rows()[0]?.textContent).toContain('Lovelace, Ada');
    expect(rows()[0]?.hasAttribute('data-highlighted')).toBe(true);
    expect(announcements()).toContain('Added Lovelace, Ada at the end of the list.');
  });

  it('saves on Enter in a field, without saving the deposit form', async () => {
    const user = userEvent.setup();
    const { values, outerSubmit } = renderField();
    const modal = await openAddDialog(user);
    await user.type(within(modal).getByRole('textbox', { name: 'Family name' }), 'Hopper{Enter}');
    await waitFor(() => expect(values()).toHaveLength(1));
    expect(outerSubmit).not.toHaveBeenCalled();
  });

  it('requires the name of an organisation and keeps person and organisation details apart', async () => {
    const user = userEvent.setup();
    const { values } = renderField();
    const modal = await openAddDialog(user);
    await user.type(within(modal).getByRole('textbox', { name: 'Family name' }), 'Lovelace');

    await user.click(within(modal).getByRole('radio', { name: 'Organization' }));
    await user.click(within(modal).getByRole('button', { name: 'Save' }));

    expect(await within(modal).findByText('Name is a required field.')).toBeTruthy();
    await user.type(within(modal).getByRole('textbox', { name: 'Name' }), 'CERN');
    await user.click(within(modal).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(values()).toHaveLength(1));
    expect(values()[0]).toEqual(organisation('CERN'));
  });

  it('requires a role for contributors, chosen from contributorsroles', async () => {
    const user = userEvent.setup();
    const { values, allRequests } = renderField({ name: 'metadata.contributors' });
    const modal = await openAddDialog(user, 'Add contributor');
    expect(within(modal).getByRole('heading', { name: 'Add contributor' })).toBeTruthy();
    await user.type(within(modal).getByRole('textbox', { name: 'Family name' }), 'Hopper');

    await user.click(within(modal).getByRole('button', { name: 'Save' }));

    expect(await within(modal).findByText('Role is a required field.')).toBeTruthy();
    expect(values()).toEqual([]);

    await user.click(within(modal).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Supervisor' }));
    await user.click(within(modal).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(values()).toEqual([person('Hopper', '', { role: 'supervisor' })]));
    expect(allRequests().some((url) => url.startsWith('/api/vocabularies/contributorsroles'))).toBe(
      true,
    );
    expect(await within(rows()[0] as HTMLElement).findByText('Supervisor')).toBeTruthy();
  });

  it('lets a creator go without a role, sorted choices from creatorsroles', async () => {
    const user = userEvent.setup();
    renderField();
    const modal = await openAddDialog(user);
    await user.click(within(modal).getByRole('combobox', { name: 'Role' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Contact person',
      'Editor',
      'Researcher',
    ]);
  });

  it('checks identifiers where they are typed and keeps their schemes', async () => {
    const user = userEvent.setup();
    const { values } = renderField();
    const modal = await openAddDialog(user);
    await user.type(within(modal).getByRole('textbox', { name: 'Family name' }), 'Lovelace');
    const identifiers = within(modal).getByPlaceholderText('e.g. ORCID, ISNI or GND.');

    await user.type(identifiers, '0000-0002-1825-0098{Enter}');
    await user.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(
      await within(modal).findByText('“0000-0002-1825-0098” is not a valid ORCID identifier.'),
    ).toBeTruthy();

    await user.click(identifiers);
    await user.keyboard('{Backspace}');
    await user.type(identifiers, 'not-an-id{Enter}');
    await user.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(
      await within(modal).findByText('“not-an-id” is not an ORCID, ISNI, GND or ROR identifier.'),
    ).toBeTruthy();

    await user.click(identifiers);
    await user.keyboard('{Backspace}');
    await user.type(identifiers, 'https://orcid.org/0000-0002-1825-0097{Enter}');
    // Corrected: the message goes as the value changes, not at the next Save.
    await waitFor(() =>
      expect(within(modal).queryByText(/is not an ORCID, ISNI, GND or ROR identifier/)).toBeNull(),
    );
    await user.click(within(modal).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(values()).toHaveLength(1));
    expect(values()[0]?.person_or_org.identifiers).toEqual([
      { scheme: 'orcid', identifier: '0000-0002-1825-0097' },
    ]);
  });

  it('edits an entry in place and Cancel changes nothing', async () => {
    const user = userEvent.setup();
    const { values } = renderField({
      creators: [person('Lovelace', 'Ada', { affiliations: [{ name: 'Analytical Society' }] })],
    });
    await user.click(screen.getByRole('button', { name: 'Edit Lovelace, Ada' }));
    let modal = dialog();
    expect(within(modal).getByRole('heading', { name: 'Edit creator' })).toBeTruthy();
    expect(within(modal).queryByRole('button', { name: 'Save and add another' })).toBeNull();
    const given = within(modal).getByRole<HTMLInputElement>('textbox', { name: 'Given names' });
    expect(given.value).toBe('Ada');
    await user.clear(given);
    await user.type(given, 'Augusta Ada');
    await user.click(within(modal).getByRole('button', { name: 'Cancel' }));
    expect(values()[0]?.person_or_org.given_name).toBe('Ada');

    await user.click(screen.getByRole('button', { name: 'Edit Lovelace, Ada' }));
    modal = dialog();
    const givenAgain = within(modal).getByRole('textbox', { name: 'Given names' });
    await user.clear(givenAgain);
    await user.type(givenAgain, 'Augusta Ada');
    await user.click(
      within(modal).getByRole('button', { name: 'Remove affiliation Analytical Society' }),
    );
    await user.click(within(modal).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(values()).toEqual([person('Lovelace', 'Augusta Ada')]);
    expect(rows()[0]?.textContent).toContain('Lovelace, Augusta Ada');
  });

  it('"Save and add another" adds, empties the dialog and reads "Added" for a while', async () => {
    const user = userEvent.setup();
    const { values } = renderField();
    const modal = await openAddDialog(user);
    await user.type(within(modal).getByRole('textbox', { name: 'Family name' }), 'Lovelace');

    await user.click(within(modal).getByRole('button', { name: 'Save and add another' }));

    expect(await within(modal).findByRole('button', { name: 'Added' })).toBeTruthy();
    expect(values()).toEqual([person('Lovelace')]);
    expect(
      within(modal).getByRole<HTMLInputElement>('textbox', { name: 'Family name' }).value,
    ).toBe('');
    await user.type(within(modal).getByRole('textbox', { name: 'Family name' }), 'Hopper');
    await user.click(within(modal).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(values()).toEqual([person('Lovelace'), person('Hopper')]));
  });

  it('"Added" turns back into "Save and add another" after SAVE_AND_ADD_ANOTHER_FEEDBACK_MS', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
      renderField();
      const modal = await openAddDialog(user);
      await user.type(within(modal).getByRole('textbox', { name: 'Family name' }), 'Lovelace');
      await user.click(within(modal).getByRole('button', { name: 'Save and add another' }));
      expect(await within(modal).findByRole('button', { name: 'Added' })).toBeTruthy();

      act(() => {
        vi.advanceTimersByTime(SAVE_AND_ADD_ANOTHER_FEEDBACK_MS - 100);
      });
      expect(within(modal).getByRole('button', { name: 'Added' })).toBeTruthy();
      act(() => {
        vi.advanceTimersByTime(200);
      });
      expect(within(modal).getByRole('button', { name: 'Save and add another' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('CreatorsField: searching names and organisations', () => {
  it('finds people by name, tells namesakes apart and fills the dialog from the one picked', async () => {
    const user = userEvent.setup();
    const { values, allRequests } = renderField();
    const modal = await openAddDialog(user);
    const search = within(modal).getByRole('textbox', { name: 'Search for a person' });
    expect(search.getAttribute('placeholder')).toBe(
      'Search for persons by name, identifier, or affiliation...',
    );

    await user.type(search, 'Lovelace');

    const options = await screen.findAllByRole('option');
    expect(options).toHaveLength(2);
    expect(options[0]?.textContent).toContain('CERN; Analytical Society');
    expect(options[0]?.textContent).toContain('ORCID 0000-0002-1825-0097');
    expect(options[1]?.textContent).toContain('Stanford University');
    // Debounced: one request for the whole word, not one per keystroke.
    expect(allRequests().filter((url) => url.startsWith('/api/names'))).toEqual([
      '/api/names?suggest=Lovelace&size=10',
    ]);

    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    // The second namesake: Stanford.
    expect(
      within(modal).getByRole<HTMLInputElement>('textbox', { name: 'Family name' }).value,
    ).toBe('Lovelace');
    expect(
      within(within(modal).getByRole('list', { name: 'Chosen affiliations' })).getByText(
        'Stanford University',
      ),
    ).toBeTruthy();
    await user.click(within(modal).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(values()).toHaveLength(1));
    expect(values()[0]).toEqual(
      person('Lovelace', 'Ada', {
        person_or_org: {
          type: 'personal',
          family_name: 'Lovelace',
          given_name: 'Ada',
          name: '',
          identifiers: [{ scheme: 'orcid', identifier: '0000-0001-5109-3700' }],
        },
        affiliations: [{ id: '03yrm5c26', name: 'Stanford University' }],
      }),
    );
  });

  it('drops repeated affiliations of a person found by search', async () => {
    const user = userEvent.setup();
    const { values } = renderField();
    const modal = await openAddDialog(user);
    await user.type(within(modal).getByRole('textbox', { name: 'Search for a person' }), 'Love');
    await user.click((await screen.findAllByRole('option'))[0] as HTMLElement);
    await user.click(within(modal).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(values()).toHaveLength(1));
    expect(values()[0]?.affiliations).toEqual([
      { id: '01ggx4157', name: 'CERN' },
      { name: 'Analytical Society' },
    ]);
  });

  it('finds organisations and drops only their GRID identifiers', async () => {
    const user = userEvent.setup();
    const { values } = renderField();
    const modal = await openAddDialog(user);
    await user.click(within(modal).getByRole('radio', { name: 'Organization' }));
    const search = within(modal).getByRole('textbox', { name: 'Search for an organization' });

    await user.type(search, 'cern');
    const option = await screen.findByRole('option', { name: /CERN \(CERN\)/ });
    expect(option.textContent).toContain('Geneva, Switzerland');
    await user.click(option);
    await user.click(within(modal).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(values()).toHaveLength(1));
    expect(values()[0]?.person_or_org).toEqual({
      type: 'organizational',
      name: 'CERN',
      family_name: '',
      given_name: '',
      identifiers: [
        { scheme: 'ror', identifier: '01ggx4157' },
        { scheme: 'isni', identifier: '0000 0001 2156 142X' },
      ],
    });
  });

  it('adds affiliations from the vocabulary or as free text', async () => {
    const user = userEvent.setup();
    const { values } = renderField();
    const modal = await openAddDialog(user);
    await user.type(within(modal).getByRole('textbox', { name: 'Family name' }), 'Hopper');
    const affiliations = within(modal).getByRole('textbox', { name: 'Affiliations' });
    expect(affiliations.getAttribute('placeholder')).toBe('Search or create affiliation');

    await user.type(affiliations, 'Stanford');
    await user.click(await screen.findByRole('option', { name: /^Stanford University/ }));
    await user.type(affiliations, 'Harvard Computation Lab');
    await user.click(await screen.findByRole('option', { name: 'Add “Harvard Computation Lab”' }));
    const chosen = within(modal).getByRole('list', { name: 'Chosen affiliations' });
    expect(
      within(chosen)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Stanford University×', 'Harvard Computation Lab×']);
    await user.click(within(modal).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(values()).toHaveLength(1));
    expect(values()[0]?.affiliations).toEqual([
      { id: '03yrm5c26', name: 'Stanford University' },
      { name: 'Harvard Computation Lab' },
    ]);
  });

  it('in search_only mode shows the fields once a result or manual entry is chosen', async () => {
    const user = userEvent.setup();
    renderField({ creatorMode: 'search_only' });
    const modal = await openAddDialog(user);
    expect(within(modal).queryByRole('textbox', { name: 'Family name' })).toBeNull();

    await user.type(within(modal).getByRole('textbox', { name: 'Search for a person' }), 'zz');
    await user.click(await screen.findByRole('option', { name: 'Enter the details manually' }));

    expect(within(modal).getByRole('textbox', { name: 'Family name' })).toBeTruthy();
  });

  it('with the search off shows the fields only', async () => {
    const user = userEvent.setup();
    renderField({ creatorMode: 'off' });
    const modal = await openAddDialog(user);
    expect(within(modal).queryByRole('textbox', { name: 'Search for a person' })).toBeNull();
    expect(within(modal).getByRole('textbox', { name: 'Family name' })).toBeTruthy();
  });

  it('says when nothing is found', async () => {
    const user = userEvent.setup();
    renderField();
    const modal = await openAddDialog(user);
    await user.type(within(modal).getByRole('textbox', { name: 'Search for a person' }), 'zzz');
    expect(await screen.findByText('No results found.')).toBeTruthy();
  });
});

describe('CreatorsField in German', () => {
  it('speaks German, messages included', async () => {
    const user = userEvent.setup();
    renderField({ name: 'metadata.contributors', language: 'de' });
    await user.click(screen.getByRole('button', { name: 'Mitwirkende hinzufügen' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Speichern' }));
    expect(await within(dialog()).findByText('Nachname ist ein Pflichtfeld.')).toBeTruthy();
    expect(within(dialog()).getByText('Rolle ist ein Pflichtfeld.')).toBeTruthy();
  });
});

describe('CreatorsField: importing a list', () => {
  it('resolves contributor roles by label or id, leaves out rows with problems unless ticked, and appends', async () => {
    const user = userEvent.setup();
    const { values } = renderField({
      name: 'metadata.contributors',
      contributors: [person('Hopper', 'Grace', { role: 'supervisor' })],
    });
    await user.click(screen.getByRole('button', { name: 'Import contributors' }));
    const box = await screen.findByRole('textbox', { name: 'Table, JSON or CITATION.cff' });
    // As a German spreadsheet saves CSV: semicolons, the header in German, any order.
    fireEvent.change(box, {
      target: {
        value:
          'Rolle;Nachname;Vorname;Zugehörigkeiten\n' +
          'Data collector;Lovelace;Ada;"CERN; Analytical Society"\n' +
          'janitor;Babbage;Charles;\n' +
          'hostinginstitution;Somerville;Mary;\n',
      },
    });
    expect(await within(dialog()).findByText('Unknown role “janitor”.')).toBeTruthy();
    const babbage = within(dialog()).getByRole('checkbox', { name: 'Line 3: Babbage, Charles' });
    expect((babbage as HTMLInputElement).checked).toBe(false);
    // CERN is in the vocabulary under that name: offered, and taken unless unticked.
    const cern = await within(dialog()).findByRole('checkbox', {
      name: '“CERN”: use CERN (Geneva, Switzerland)',
    });
    expect((cern as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog()).getByRole('button', { name: 'Append 2 entries' }));

    await waitFor(() => expect(values()).toHaveLength(3));
    expect(values().map((entry) => [entry.person_or_org.family_name, entry.role])).toEqual([
      ['Hopper', 'supervisor'],
      ['Lovelace', 'datacollector'],
      ['Somerville', 'hostinginstitution'],
    ]);
    expect(values()[1]?.affiliations).toEqual([
      { id: '01ggx4157', name: 'CERN' },
      { name: 'Analytical Society' },
    ]);
    expect(announcements()).toContain('Imported 2 entries.');
  });

  it('replaces the list, and says what cannot be read', async () => {
    const user = userEvent.setup();
    const { values } = renderField({ creators: [person('Hopper', 'Grace')] });
    await user.click(screen.getByRole('button', { name: 'Import creators' }));
    const box = await screen.findByRole('textbox', { name: 'Table, JSON or CITATION.cff' });
    fireEvent.change(box, { target: { value: '[{"family_name": "Lovelace"' } });
    expect(await within(dialog()).findByText('This is not valid JSON.')).toBeTruthy();
    fireEvent.change(box, {
      target: {
        value: 'cff-version: 1.2.0\nauthors:\n  - family-names: Lovelace\n    given-names: Ada\n',
      },
    });
    await user.click(
      await within(dialog()).findByRole('button', { name: 'Replace the list with 1 entry' }),
    );
    await waitFor(() =>
      expect(values().map((entry) => entry.person_or_org.family_name)).toEqual(['Lovelace']),
    );
    expect(announcements()).toContain('Replaced the list with 1 imported entry.');
  });

  it('reads a chosen file, and refuses one too large to be a list of people', async () => {
    const user = userEvent.setup();
    const { values } = renderField();
    await user.click(screen.getByRole('button', { name: 'Import creators' }));
    await screen.findByRole('button', { name: 'Choose a file…' });
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    const huge = new File(['x'], 'huge.csv', { type: 'text/csv' });
    Object.defineProperty(huge, 'size', { value: 11 * 1024 * 1024 });
    await user.upload(input, huge);
    expect(
      await within(dialog()).findByText(
        'huge.csv is larger than 10 MB: no list of people is that large.',
      ),
    ).toBeTruthy();
    const cff = new File(
      [
        'cff-version: 1.2.0\nauthors:\n  - family-names: Lovelace\n    given-names: Ada\n  - name: CERN\n',
      ],
      'CITATION.cff',
    );
    await user.upload(input, cff);
    expect(await within(dialog()).findByText('2 rows read (CITATION.cff).')).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Append 2 entries' }));
    await waitFor(() =>
      expect(
        values().map((entry) => [
          entry.person_or_org.type,
          entry.person_or_org.family_name || entry.person_or_org.name,
        ]),
      ).toEqual([
        ['personal', 'Lovelace'],
        ['organizational', 'CERN'],
      ]),
    );
  });

  it('speaks German', async () => {
    const user = userEvent.setup();
    renderField({ language: 'de' });
    await user.click(screen.getByRole('button', { name: 'Urheber importieren' }));
    const box = await screen.findByRole('textbox', { name: 'Tabelle, JSON oder CITATION.cff' });
    fireEvent.change(box, { target: { value: 'Ada\t\t0000-0002-1825-0098\n' } });
    expect(
      await within(dialog()).findByText(
        '„0000-0002-1825-0098“ ist keine gültige ORCID iD (falsche Prüfziffer oder Form). Der Nachname fehlt.',
      ),
    ).toBeTruthy();
  });
});
