import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useBootstrap } from '../bootstrap';

export function HomePage() {
  const { t } = useTranslation();
  const { config, user } = useBootstrap();
  return (
    <Stack>
      <Title order={1}>{t('app.homeTitle', { siteName: config.siteName })}</Title>
      <Text>{t('app.homeIntro')}</Text>
      <Group>
        <Button component={Link} to="/uploads/new">
          {t('app.newUpload')}
        </Button>
        {user && (
          <Button component={Link} to="/me/uploads" variant="default">
            {t('app.myUploads')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
