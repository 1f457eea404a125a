import { fireEvent, screen } from '@testing-library/react';
import { expect } from 'vitest';
import { jsonResponse } from './fetch';
import { descriptionOf } from './renderApp';

/** The server's answer to a query it cannot parse: a 400 whose message says why. */
export const refusedQuery = (message: string) => jsonResponse(400, { status: 400, message });

/**
 * Checks that the search box named `boxName` shows the server's `message` as a reader meets it:
 * announced, marked invalid and describing the box. Returns the box.
 */
export async function expectRefusedAtBox(boxName: string, message: string): Promise<HTMLElement> {
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toBe(`Your search could not be run: ${message}`);
  const box = screen.getByRole('textbox', { name: boxName });
  expect(box.getAttribute('aria-invalid')).toBe('true');
  expect(descriptionOf(box)).toBe(alert.textContent);
  return box;
}

/** Types `query` into `box` and sends its form with the Search button. */
export function searchFor(box: HTMLElement, query: string): void {
  fireEvent.change(box, { target: { value: query } });
  fireEvent.click(screen.getByRole('button', { name: 'Search' }));
}
