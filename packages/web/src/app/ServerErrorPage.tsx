import { Anchor, Stack, Text, Title } from '@mantine/core';
import type { Tombstone } from '@cairn/shared';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useBootstrap } from '../bootstrap';
import { ErrorNotice } from '../components/ErrorNotice';
import { l10n } from '../features/shared/landing';

export interface ServerErrorPageProps {
  error: { status: number; message: string; tombstone?: Partial<Tombstone> };
}

/** The server could not render the requested page (bootstrap `error`). */
export function ServerErrorPage({ error }: ServerErrorPageProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  if (error.tombstone) return <TombstonePage tombstone={error.tombstone} />;
  if (error.status === 403 && pathname.startsWith('/records/')) return <RestrictedRecordPage />;
  return (
    <ErrorNotice
      title={error.status === 404 ? t('app.notFoundTitle') : t('app.errorTitle')}
      message={error.message}
    >
      <Anchor component={Link} to="/" size="sm">
        {t('app.goHome')}
      </Anchor>
    </ErrorNotice>
  );
}

/**
 * A restricted record the visitor may not see: what they may do instead, which is to sign in
 * (if it was shared with them) or to open the link they were given.
 */
function RestrictedRecordPage() {
  const { t } = useTranslation();
  const { user } = useBootstrap();
  const { pathname, search } = useLocation();
  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>{t('restricted.title')}</Title>
      {new URLSearchParams(search).has('token') && (
        <Text role="status">{t('restricted.linkInvalid')}</Text>
      )}
      <Text>{t('restricted.intro')}</Text>
      <ul>
        {!user && (
          <li>
            <Anchor component={Link} to={`/login?next=${encodeURIComponent(pathname + search)}`}>
              {t('restricted.signIn')}
            </Anchor>
          </li>
        )}
        <li>{user ? t('restricted.sharedSignedIn') : t('restricted.shared')}</li>
        <li>{t('restricted.link')}</li>
      </ul>
      <Anchor component={Link} to="/search" size="sm">
        {t('tombstone.search')}
      </Anchor>
    </Stack>
  );
}

/**
 * A deleted record's landing page: readers who follow a citation or a DOI learn that the record
 * was there, when and why it was removed, and how to cite it, instead of meeting a bare error.
 */
function TombstonePage({ tombstone }: { tombstone: Partial<Tombstone> }) {
  const { t, i18n } = useTranslation();
  const reason =
    l10n(tombstone.removal_reason?.title, i18n.language) || tombstone.removal_reason?.id;
  const date = tombstone.removal_date ? new Date(tombstone.removal_date) : undefined;
  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>{t('tombstone.title')}</Title>
      <Text>{t('tombstone.intro')}</Text>
      <dl>
        {reason && (
          <>
            <Text component="dt" fw={600}>
              {t('tombstone.reason')}
            </Text>
            <Text component="dd">{reason}</Text>
          </>
        )}
        {date && !Number.isNaN(date.getTime()) && (
          <>
            <Text component="dt" fw={600}>
              {t('tombstone.date')}
            </Text>
            <Text component="dd">
              <time dateTime={tombstone.removal_date}>
                {date.toLocaleDateString(i18n.language, { dateStyle: 'long' })}
              </time>
            </Text>
          </>
        )}
        {tombstone.note && (
          <>
            <Text component="dt" fw={600}>
              {t('tombstone.note')}
            </Text>
            <Text component="dd">{tombstone.note}</Text>
          </>
        )}
        {tombstone.citation_text && (
          <>
            <Text component="dt" fw={600}>
              {t('tombstone.citation')}
            </Text>
            <Text component="dd">{tombstone.citation_text}</Text>
          </>
        )}
      </dl>
      <Anchor component={Link} to="/search" size="sm">
        {t('tombstone.search')}
      </Anchor>
    </Stack>
  );
}
