import { Alert, Anchor, Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useBootstrap } from '../../bootstrap';
import { browser, toSafeNextPath } from '../../browser';
import { PasswordField } from '../../components/form/PasswordField';
import { TextField } from '../../components/form/TextField';
import { useLogin, type LoginRequest } from './api';
import { applyServerErrors } from '../shared/server-errors';

const FIELDS = ['email', 'password'] as const;

export function LoginPage() {
  const { t } = useTranslation();
  const { config } = useBootstrap();
  const [searchParams] = useSearchParams();
  const next = toSafeNextPath(searchParams.get('next'), config.dashboardUploadsRoute);
  const form = useForm<LoginRequest>({ defaultValues: { email: '', password: '' } });
  const login = useLogin();
  const [formError, setFormError] = useState<string | null>(null);

  const handleSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await login.mutateAsync(values);
      browser.assign(next);
    } catch (error) {
      setFormError(
        applyServerErrors(form.setError, error, {
          fields: FIELDS,
          fallbackMessage: t('account.failed'),
        }),
      );
    }
  });

  return (
    <Container size="xs">
      <Paper withBorder p="lg" radius="md">
        <FormProvider {...form}>
          <form noValidate onSubmit={(event) => void handleSubmit(event)}>
            <Stack>
              <Title order={1}>{t('account.loginTitle')}</Title>
              {formError && (
                <Alert color="red" variant="light">
                  {formError}
                </Alert>
              )}
              <TextField<LoginRequest>
                name="email"
                type="email"
                autoComplete="email"
                label={t('account.email')}
                required
                rules={{ required: t('account.emailRequired') }}
              />
              <PasswordField<LoginRequest>
                name="password"
                autoComplete="current-password"
                label={t('account.password')}
                required
                rules={{ required: t('account.passwordRequired') }}
              />
              <Button type="submit" loading={login.isPending || login.isSuccess}>
                {t('account.loginSubmit')}
              </Button>
              <Text size="sm">
                {t('account.noAccount')}{' '}
                <Anchor
                  component={Link}
                  to={{ pathname: '/signup', search: searchParams.toString() }}
                >
                  {t('account.signupLink')}
                </Anchor>
              </Text>
            </Stack>
          </form>
        </FormProvider>
      </Paper>
    </Container>
  );
}
