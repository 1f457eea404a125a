import { render, type RenderResult } from '@testing-library/react';
import { DEFAULT_ACCESS, type DepositFormValues } from '@cairn/shared';
import type { ReactNode } from 'react';
import { FormProvider, useForm, type UseFormReturn } from 'react-hook-form';
import { AppProviders } from '../app/AppProviders';
import { createQueryClient } from '../app/query-client';
import type { Bootstrap } from '../bootstrap';
import { createI18n } from '../i18n/i18n';
import { buildBootstrap } from './builders';

/** The deposit form's values with nothing filled in, as a new upload starts. */
export function buildFormValues(overrides: Partial<DepositFormValues> = {}): DepositFormValues {
  return {
    metadata: {
      resource_type: '',
      title: '',
      additional_titles: [],
      publication_date: '',
      creators: [],
      contributors: [],
      description: '',
      additional_descriptions: [],
      rights: [],
      languages: [],
      dates: [],
      version: '',
      publisher: '',
      identifiers: [],
      related_identifiers: [],
      references: [],
      subjects: [],
      funding: [],
    },
    access: { ...DEFAULT_ACCESS, embargo: { active: false } },
    pids: {},
    custom_fields: {},
    files: { enabled: true },
    ...overrides,
  };
}

export interface RenderInDepositFormOptions {
  values?: Partial<DepositFormValues>;
  bootstrap?: Partial<Bootstrap>;
  language?: string;
}

export type RenderInDepositFormResult = RenderResult & {
  /** The real form the widget is bound to: read its values, set errors as the core does. */
  form: UseFormReturn<DepositFormValues>;
  rerenderWidget: (widget: ReactNode) => void;
};

/**
 * One deposit widget inside a real React Hook Form over {@link DepositFormValues}, with the app's
 * providers around it, so tests drive the widget the way the deposit form does.
 */
export function renderInDepositForm(
  widget: ReactNode,
  { values, bootstrap, language = 'en' }: RenderInDepositFormOptions = {},
): RenderInDepositFormResult {
  const holder: { form?: UseFormReturn<DepositFormValues> } = {};
  const defaultValues = buildFormValues(values);
  const pageBootstrap = buildBootstrap(bootstrap);
  const queryClient = createQueryClient();
  const i18n = createI18n(language);

  function Harness({ children }: { children: ReactNode }) {
    const form = useForm<DepositFormValues>({ defaultValues });
    holder.form = form;
    return <FormProvider {...form}>{children}</FormProvider>;
  }

  const wrap = (children: ReactNode) => (
    <AppProviders bootstrap={pageBootstrap} queryClient={queryClient} i18n={i18n} env="test">
      <Harness>{children}</Harness>
    </AppProviders>
  );
  const result = render(wrap(widget));
  if (!holder.form) throw new Error('The form did not render.');
  return {
    ...result,
    form: holder.form,
    rerenderWidget: (next) => result.rerender(wrap(next)),
  };
}
