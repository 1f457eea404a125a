import { act } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildDraft } from '../../test/builders';
import { jsonResponse, stubFetch } from '../../test/fetch';
import { renderController } from '../../test/renderController';
import { toCreatorEntry } from './creators/creator-entry';
import { buildFormValues } from '../../test/renderInDepositForm';

function person(family: string) {
  return {
    person_or_org: {
      type: 'personal' as const,
      family_name: family,
      given_name: '',
      name: '',
      identifiers: [],
    },
    role: '',
    affiliations: [],
  };
}

const people = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => person(`Person${String(from + i).padStart(5, '0')}`));

describe("the form's default values", () => {
  it('follow each save, so that typing a field back to its value walks no other field', async () => {
    const draft = buildDraft({ id: 'dflts-00001' });
    stubFetch((r) => jsonResponse(200, { ...draft, revision_id: r.method === 'PUT' ? 2 : 1 }));
    const { controller, form } = renderController(draft, {
      metadata: { ...buildFormValues().metadata, title: 'Ocean', creators: people(0, 10) },
    });
    // What an import of authors leaves: many entries unlike the form's defaults.
    act(() =>
      form.setValue('metadata.creators', people(0, 200).map(toCreatorEntry), { shouldDirty: true }),
    );
    await act(() => controller().save());

    const { control } = form;
    let walks = 0;
    control._formState.dirtyFields = new Proxy(control._formState.dirtyFields, {
      ownKeys: (target) => {
        walks += 1;
        return Reflect.ownKeys(target);
      },
    });
    act(() => form.setValue('metadata.title', 'Ocean!', { shouldDirty: true }));
    act(() => form.setValue('metadata.title', 'Ocean', { shouldDirty: true }));

    expect(walks).toBe(0);
    expect(form.getValues('metadata.creators')).toHaveLength(200);
    // Entries are shared with the defaults, not copied (they are never changed in place).
    expect(form.formState.defaultValues?.metadata?.creators?.[150]).toBe(
      form.getValues('metadata.creators.150'),
    );
  });

  it('stay those of the last save while an edit is unsaved', async () => {
    const draft = buildDraft({ id: 'dflts-00002' });
    stubFetch((r) => jsonResponse(200, { ...draft, revision_id: r.method === 'PUT' ? 2 : 1 }));
    const { controller, form } = renderController(draft, {
      metadata: { ...buildFormValues().metadata, title: 'Ocean', creators: people(0, 10) },
    });
    act(() => form.setValue('metadata.title', 'Ocean temperatures', { shouldDirty: true }));
    await act(() => controller().save());
    // Typed after the save: not in the defaults, though the form changes its values in place.
    act(() => form.setValue('metadata.creators.0.person_or_org.family_name', 'Changed'));

    expect(form.formState.defaultValues?.metadata?.title).toBe('Ocean temperatures');
    expect(form.formState.defaultValues?.metadata?.creators?.[0]?.person_or_org?.family_name).toBe(
      'Person00000',
    );
  });
});
