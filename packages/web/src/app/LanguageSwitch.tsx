import { NativeSelect, Text } from '@mantine/core';
import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiClient } from '../api/useApiClient';
import { useBootstrap } from '../bootstrap';
import { languageCookie, switchLanguage } from '../i18n/i18n';

function primarySubtag(locale: string): string {
  return locale.toLowerCase().split(/[-_]/)[0] ?? locale;
}

/** A language's name in that language ("Deutsch"), as people look for their own. */
function ownName(locale: string): string {
  try {
    const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
    return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
  } catch {
    return locale;
  }
}

/**
 * The header's choice of language. The choice shows at once, is remembered in a cookie for this
 * browser and, for a signed-in person, with their account, so that it follows them.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const { config, user } = useBootstrap();
  const client = useApiClient();
  const [saveFailed, setSaveFailed] = useState(false);
  if (config.locales.length < 2) return null;
  const current =
    config.locales.find((locale) => primarySubtag(locale) === primarySubtag(i18n.language)) ??
    config.defaultLocale;

  async function handleChange(event: ChangeEvent<HTMLSelectElement>) {
    const language = event.currentTarget.value;
    document.cookie = languageCookie(language, window.location.protocol === 'https:');
    setSaveFailed(false);
    const saved = user
      ? client.put('/api/user/preferences', { locale: language }).then(
          () => true,
          () => false,
        )
      : Promise.resolve(true);
    await switchLanguage(i18n, language);
    setSaveFailed(!(await saved));
  }

  return (
    <>
      <NativeSelect
        size="xs"
        aria-label={t('app.language')}
        value={current}
        onChange={(event) => void handleChange(event)}
        data={config.locales.map((locale) => ({ value: locale, label: ownName(locale) }))}
      />
      <Text size="xs" c="red.8" role="alert">
        {saveFailed ? t('app.languageNotSaved') : ''}
      </Text>
    </>
  );
}
