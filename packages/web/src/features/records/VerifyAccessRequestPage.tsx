import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { serverMessageOf } from '../../api/client';
import { PageLoader } from '../../components/PageLoader';
import { useVerifyAccessRequest } from './access-requests-api';

/**
 * `/access-requests/verify?token=…`, where the link e-mailed to a guest who asked for access
 * leads: confirming their address sends the request to the record's owner.
 */
export function VerifyAccessRequestPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useVerifyAccessRequest();
  const started = useRef(false);

  useEffect(() => {
    // Once: the token is used up by the first confirmation.
    if (started.current || !token) return;
    started.current = true;
    verify.mutate(token);
  }, [token, verify]);

  const recordId = verify.data?.topic?.record;
  return (
    <Stack maw={720}>
      <Title order={1}>{t('accessRequest.verifyTitle')}</Title>
      {!token ? (
        <Alert color="red" variant="light" role="alert">
          {t('accessRequest.verifyNoToken')}
        </Alert>
      ) : verify.isError ? (
        <Alert color="red" variant="light" role="alert">
          {serverMessageOf(verify.error) ?? t('accessRequest.failed')}
        </Alert>
      ) : verify.isSuccess ? (
        <Alert color="teal" variant="light" role="status">
          <Text size="sm">{t('accessRequest.verified')}</Text>
          {recordId && (
            <Anchor component={Link} to={`/records/${encodeURIComponent(recordId)}`} size="sm">
              {t('accessRequest.backToRecord')}
            </Anchor>
          )}
        </Alert>
      ) : (
        <PageLoader label={t('accessRequest.verifying')} />
      )}
    </Stack>
  );
}
