import { Anchor, Badge, Box, Button, Group, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useBootstrap } from '../bootstrap';
import { useAwaitingCount } from '../features/shared/request-lists';
import { LanguageSwitch } from './LanguageSwitch';

export function AppHeader() {
  const { t } = useTranslation();
  const { config, user } = useBootstrap();
  const { pathname, search } = useLocation();
  const isOnAccountPage = pathname === '/login' || pathname === '/signup';
  // After logging in, come back to the page that asked for it.
  const accountSearch = isOnAccountPage ? search : `?next=${encodeURIComponent(pathname + search)}`;

  return (
    <Box
      component="header"
      px="md"
      py="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Group justify="space-between" wrap="wrap">
        <Group gap="xl">
          <Anchor component={Link} to="/" fw={700} size="lg" underline="never" c="inherit">
            {config.siteName}
          </Anchor>
          <Group component="nav" aria-label={t('app.mainNavigation')} gap="md">
            <Anchor component={Link} to="/search">
              {t('app.search')}
            </Anchor>
            <Anchor component={Link} to="/uploads/new">
              {t('app.newUpload')}
            </Anchor>
            <Anchor component={Link} to="/me/uploads">
              {t('app.myUploads')}
            </Anchor>
            <Anchor component={Link} to="/communities">
              {t('communities.nav')}
            </Anchor>
            {user && <RequestsLink />}
          </Group>
        </Group>
        <Group gap="md">
          <LanguageSwitch />
          {user ? (
            <Group gap="md">
              <Text size="sm">{t('app.signedInAs', { name: user.name || user.email })}</Text>
              <Anchor component={Link} to="/account/tokens">
                {t('app.accessTokens')}
              </Anchor>
              {/* A server route: it clears the session and redirects, so not a router link. */}
              <Anchor href="/logout">{t('app.logOut')}</Anchor>
            </Group>
          ) : (
            <Group gap="sm">
              <Button component={Link} to={`/login${accountSearch}`} variant="default" size="xs">
                {t('app.logIn')}
              </Button>
              <Button component={Link} to={`/signup${accountSearch}`} size="xs">
                {t('app.signUp')}
              </Button>
            </Group>
          )}
        </Group>
      </Group>
    </Box>
  );
}

/**
 * The person's requests, with how many open ones wait for their decision (as curator, manager or
 * owner of the receiving community); kept current by polling, so a new submission shows without
 * a reload.
 */
function RequestsLink() {
  const { t } = useTranslation();
  const count = useAwaitingCount(true).data?.awaiting ?? 0;
  // Seen: the word and a badge; heard: one phrase (spans next to each other would run together).
  return (
    <Anchor component={Link} to="/me/requests">
      {count > 0 ? (
        <>
          <Group gap={6} wrap="nowrap" component="span" aria-hidden="true">
            {t('app.requests')}
            <Badge component="span" size="sm" circle={count < 10}>
              {count}
            </Badge>
          </Group>
          <VisuallyHidden>{t('app.requestsAwaiting', { count })}</VisuallyHidden>
        </>
      ) : (
        t('app.requests')
      )}
    </Anchor>
  );
}
