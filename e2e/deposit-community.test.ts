import { describe, expect } from 'vitest';
import { axeViolations } from './support/axe.js';
import { createAccount } from './support/server.js';
import { logIn, test } from './support/test.js';

describe('deposit community and access journey', () => {
  test('a member picks their restricted community for a restricted upload, with an embargo, free of axe violations', async ({
    page,
    server,
  }) => {
    const account = await createAccount(server.services, { name: 'Ada Lovelace' });
    await server.services.communities.create(account.user, {
      slug: 'polar-archive',
      metadata: { title: 'Polar archive', type: { id: 'organization' } },
      access: { visibility: 'restricted', review_policy: 'closed' },
    });
    await server.services.communities.create(account.user, {
      slug: 'open-glaciers',
      metadata: { title: 'Open glaciers', type: { id: 'organization' } },
      access: { visibility: 'public', review_policy: 'closed' },
    });
    await logIn(page, account, '/uploads/new');

    const fullRecord = page.getByRole('radiogroup', { name: 'Full record' });
    const bar = page.getByRole('region', { name: 'Community' });
    await bar.getByText('Select the community where you want to submit your record.').waitFor();

    // A public record cannot go to a restricted community: the picker says why.
    await bar.getByRole('button', { name: 'Select a community', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Select a community', exact: true });
    const polar = dialog.getByRole('listitem').filter({ hasText: 'Polar archive' });
    await polar.getByText('Owner').waitFor();
    expect(
      await polar.getByRole('button', { name: 'Select Polar archive', exact: true }).isDisabled(),
    ).toBe(true);
    await polar.getByRole('button', { name: "Why can't I select Polar archive?" }).click();
    await page
      .getByText('Submission to this community is only allowed if the record is restricted.')
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Restricted, it may; the community then keeps Public disabled.
    await fullRecord.getByText('Restricted', { exact: true }).click();
    await bar.getByRole('button', { name: 'Select a community', exact: true }).click();
    await dialog.getByRole('button', { name: 'Select Polar archive', exact: true }).click();
    await bar.getByText('Polar archive').waitFor();
    expect(await fullRecord.getByRole('radio', { name: /Public/ }).isDisabled()).toBe(true);

    // An embargo on the restricted record, with its date.
    expect(await page.getByRole('checkbox', { name: 'Apply an embargo' }).isDisabled()).toBe(true);
    await bar.getByRole('button', { name: 'Remove the community Polar archive' }).click();
    await page.getByRole('checkbox', { name: 'Apply an embargo' }).check();
    await page.getByRole('textbox', { name: 'Embargo until' }).fill('2100-01-01');
    await page.getByRole('textbox', { name: 'Embargo reason' }).click();
    await page
      .getByText(
        'On Friday, January 1, 2100 the record will automatically be made publicly accessible.',
        {
          exact: false,
        },
      )
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });
});
