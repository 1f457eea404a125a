import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BOOTSTRAP_ELEMENT_ID,
  BootstrapSchema,
  readBootstrap,
  UnreadableBootstrapError,
} from '../bootstrap';
import { createI18n } from '../i18n/i18n';
import { AppProviders } from './AppProviders';
import { BootstrapErrorPage } from './BootstrapErrorPage';
import { createQueryClient } from './query-client';

function injectBootstrap(json: string) {
  const script = document.createElement('script');
  script.id = BOOTSTRAP_ELEMENT_ID;
  script.type = 'application/json';
  script.textContent = json;
  document.head.append(script);
}

afterEach(() => document.getElementById(BOOTSTRAP_ELEMENT_ID)?.remove());

describe('a bootstrap that cannot be read', () => {
  it.each([
    ['JSON cut short', '{"user": {"id": "7", "email": "ada@exam'],
    ['not an object', '"a page"'],
    ['permissions of another shape', '{"permissions": {"can_manage": "no"}}'],
  ])('is refused when it is %s, never read as every permission granted', (_, json) => {
    injectBootstrap(json);
    expect(() => readBootstrap(document)).toThrow(UnreadableBootstrapError);
  });

  it('shows a page that says so and offers to load the page again', () => {
    render(
      <AppProviders
        bootstrap={BootstrapSchema.parse({})}
        queryClient={createQueryClient()}
        i18n={createI18n('en')}
        env="test"
      >
        <BootstrapErrorPage href="http://localhost:3000/uploads/abcde-12345" />
      </AppProviders>,
    );
    expect(screen.getByText('This page could not be loaded')).toBeTruthy();
    expect(screen.getByText(/arrived incomplete or damaged/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Reload the page' }).getAttribute('href')).toBe(
      'http://localhost:3000/uploads/abcde-12345',
    );
  });
});
