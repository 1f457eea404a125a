import { describe } from 'vitest';
import { createAccount } from './support/server.js';
import { logIn, test } from './support/test.js';

describe('page chunks', () => {
  test('a page whose code cannot be fetched shows the error page, and loads once it can', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services);
    await logIn(page, account, '/me/uploads');

    // As after a release that replaced the chunk, or with the network gone.
    await page.route(/\/assets\/DepositPage-[^/]+\.js$/, (route) => route.abort());
    await page.goto('/uploads/new');
    await page.getByText('Something went wrong').waitFor();
    await page
      .getByText('This page could not be shown. Please reload it or try again later.')
      .waitFor();

    await page.unroute(/\/assets\/DepositPage-[^/]+\.js$/);
    await page.reload();
    await page.getByRole('heading', { name: 'New upload', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Title', exact: true }).waitFor();
  });
});
