import type { AccessSettings } from '@cairn/shared';

// Apart from share-api.ts, whose queries and schemas belong to the Share dialog's own chunk: the
// landing page and the editor read the settings to hand to the dialog, and must not load the rest.

/** `parent.access.settings` of a record or draft as its JSON carries it, defaults filled in. */
export function accessSettingsOf(record: object): AccessSettings {
  const { parent } = record as { parent?: { access?: { settings?: Partial<AccessSettings> } } };
  const settings = parent?.access?.settings ?? {};
  return {
    allow_user_requests: settings.allow_user_requests === true,
    allow_guest_requests: settings.allow_guest_requests === true,
    accept_conditions_text: settings.accept_conditions_text ?? null,
    secret_link_expiration: settings.secret_link_expiration ?? 0,
  };
}
