import { render } from '@testing-library/react';
import type { DepositFormValues, MetadataFormValues } from '@cairn/shared';
import type { ReactNode } from 'react';
import { FormProvider, useForm, type UseFormReturn } from 'react-hook-form';
import { AppProviders } from '../../../app/AppProviders';
import { createQueryClient } from '../../../app/query-client';
import type { Bootstrap } from '../../../bootstrap';
import { createI18n } from '../../../i18n/i18n';
import { buildBootstrap } from '../../../test/builders';
import { buildFormValues as buildEmptyFormValues } from '../../../test/renderInDepositForm';
import { jsonResponse, stubFetch, type RecordedRequest } from '../../../test/fetch';

/** An empty frontend record, as a new upload starts, with `metadata` filled in. */
export function buildFormValues(metadata: Partial<MetadataFormValues> = {}): DepositFormValues {
  const empty = buildEmptyFormValues();
  return { ...empty, metadata: { ...empty.metadata, ...metadata } };
}

export interface RenderFieldOptions {
  metadata?: Partial<MetadataFormValues>;
  bootstrap?: Partial<Bootstrap>;
  language?: string;
}

/** `ui` inside a real deposit form (React Hook Form) with the app's providers. */
export function renderField(ui: ReactNode, options: RenderFieldOptions = {}) {
  const form: { current?: UseFormReturn<DepositFormValues> } = {};
  function Harness() {
    const methods = useForm<DepositFormValues>({
      defaultValues: buildFormValues(options.metadata),
    });
    form.current = methods;
    return (
      <FormProvider {...methods}>
        <form noValidate>{ui}</form>
      </FormProvider>
    );
  }
  const result = render(
    <AppProviders
      bootstrap={buildBootstrap(options.bootstrap)}
      queryClient={createQueryClient()}
      i18n={createI18n(options.language ?? 'en')}
      env="test"
    >
      <Harness />
    </AppProviders>,
  );
  return {
    ...result,
    /** The form's values now. */
    metadata: () => form.current!.getValues().metadata,
    form: () => form.current!,
  };
}

/** A localised vocabulary hit as `/api/vocabularies/{type}` answers with the vnd header. */
export function vocabularyHit(id: string, title: string, extra: Record<string, unknown> = {}) {
  return { id, title_l10n: title, tags: [], ...extra };
}

export function hitsBody(hits: unknown[], total = hits.length) {
  return { hits: { hits, total }, sortBy: 'title', links: {} };
}

/**
 * Answers API requests by path with `routes[path](url)` as a 200 JSON body; a path without a
 * route answers 404 as the server would for an unknown id.
 */
export function stubApi(routes: Record<string, (url: URL) => unknown>): RecordedRequest[] {
  return stubFetch((request) => {
    const url = new URL(request.url, window.location.origin);
    const route = routes[url.pathname];
    return route
      ? jsonResponse(200, route(url))
      : jsonResponse(404, { status: 404, message: 'The persistent identifier does not exist.' });
  });
}

export const TITLE_TYPES = [
  vocabularyHit('alternative-title', 'Alternative title'),
  vocabularyHit('subtitle', 'Subtitle'),
  vocabularyHit('translated-title', 'Translated title'),
];
