import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessageOf } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { useCommunity, type CommunityJson } from './communities';

/** The community `slug` once loaded, for a page about it; meanwhile a loader, or why it failed. */
export function CommunityLoader({
  slug,
  children,
}: {
  slug: string;
  children: (community: CommunityJson) => ReactNode;
}) {
  const { t } = useTranslation();
  const community = useCommunity(slug);
  if (community.isPending) return <PageLoader label={t('app.loading')} />;
  if (community.isError) {
    return (
      <ErrorNotice
        title={t('communities.notFound')}
        message={serverMessageOf(community.error) ?? t('communities.loadFailed')}
      />
    );
  }
  return children(community.data);
}
