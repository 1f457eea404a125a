import { Anchor, Button, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useBootstrap } from '../../bootstrap';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { SearchForm } from '../../components/SearchForm';
import { CommunityLogo } from '../shared/CommunityLogo';
import { RecordResultItem } from '../shared/RecordResultItem';
import { useRecordSearch } from '../shared/record-search';
import { LATEST_RECORDS, useHomeCommunities } from './api';

/** `/`: a search box into the records, the latest of them, and a few communities. */
export function HomePage() {
  const { t } = useTranslation();
  const { config, user } = useBootstrap();
  const navigate = useNavigate();

  return (
    <Stack gap="xl">
      <Stack gap="sm">
        <Title order={1}>{t('app.homeTitle', { siteName: config.siteName })}</Title>
        <Text>{t('app.homeIntro')}</Text>
        <SearchForm
          label={t('home.searchLabel')}
          submitLabel={t('search.submit')}
          initialQuery=""
          size="lg"
          onSearch={(q) => void navigate(q ? `/search?${new URLSearchParams({ q })}` : '/search')}
        />
        {user ? (
          <Group>
            <Button component={Link} to="/uploads/new">
              {t('app.newUpload')}
            </Button>
            <Button component={Link} to="/me/uploads" variant="default">
              {t('app.myUploads')}
            </Button>
          </Group>
        ) : (
          <Group>
            <Text>{t('home.visitor')}</Text>
            <Button component={Link} to="/login" variant="default">
              {t('app.logIn')}
            </Button>
            <Button component={Link} to="/signup">
              {t('app.signUp')}
            </Button>
          </Group>
        )}
      </Stack>
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <LatestRecords />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Communities />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function LatestRecords() {
  const { t } = useTranslation();
  const latest = useRecordSearch(LATEST_RECORDS);
  return (
    <Stack component="section" aria-labelledby="home-latest">
      <Group justify="space-between" align="baseline">
        <Title order={2} id="home-latest">
          {t('home.latest')}
        </Title>
        <Anchor component={Link} to="/search">
          {t('home.allRecords')}
        </Anchor>
      </Group>
      {latest.isPending ? (
        <PageLoader label={t('app.loading')} />
      ) : latest.isError ? (
        <ErrorNotice title={t('home.latestFailed')} />
      ) : latest.data.hits.hits.length === 0 ? (
        <Text>{t('home.noRecords')}</Text>
      ) : (
        <Stack component="ul" gap="lg" p={0} m={0} style={{ listStyle: 'none' }}>
          {latest.data.hits.hits.map((record) => (
            <li key={record.id}>
              <RecordResultItem record={record} headingOrder={3} />
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function Communities() {
  const { t } = useTranslation();
  const communities = useHomeCommunities();
  return (
    <Stack component="section" aria-labelledby="home-communities">
      <Title order={2} id="home-communities">
        {t('communities.title')}
      </Title>
      {communities.isPending ? (
        <PageLoader label={t('app.loading')} />
      ) : communities.isError ? (
        <ErrorNotice title={t('communities.loadFailed')} />
      ) : communities.data.hits.length === 0 ? (
        <Text>{t('communities.empty')}</Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {communities.data.hits.map((community) => (
            <Group component="li" key={community.id} gap="sm" wrap="nowrap">
              <CommunityLogo community={community} size={32} />
              <Anchor
                component={Link}
                to={`/communities/${encodeURIComponent(community.slug ?? community.id)}`}
              >
                {community.metadata.title ?? community.slug}
              </Anchor>
            </Group>
          ))}
        </Stack>
      )}
      <Anchor component={Link} to="/communities">
        {t('home.allCommunities')}
      </Anchor>
    </Stack>
  );
}
