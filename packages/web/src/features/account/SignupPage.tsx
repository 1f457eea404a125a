import { Alert, Anchor, Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useBootstrap } from '../../bootstrap';
import { browser, toSafeNextPath } from '../../browser';
import { PasswordField } from '../../components/form/PasswordField';
import { TextField } from '../../components/form/TextField';
import { useSignup, type SignupRequest } from './api';
import { applyServerErrors } from '../shared/server-errors';

const FIELDS = ['name', 'email', 'password'] as const;

// The server enforces the same minimum; checking here saves a round trip.
const PASSWORD_MIN_LENGTH = 8;

export function SignupPage() {
  const { t } = useTranslation();
  const { config } = useBootstrap();
  const [searchParams] = useSearchParams();
  const next = toSafeNextPath(searchParams.get('next'), config.dashboardUploadsRoute);
  const form = useForm<SignupRequest>({ defaultValues: { name: '', email: '', password: '' } });
  const signup = useSignup();
  const [formError, setFormError] = useState<string | null>(null);

  const handleSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await signup.mutateAsync(values);
      browser.assign(next);
    } catch (error) {
      setFormError(
        applyServerErrors(form.setError, error, {
          fields: FIELDS,
          takenField: 'email',
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
              <Title order={1}>{t('account.signupTitle')}</Title>
              {formError && (
                <Alert color="red" variant="light">
                  {formError}
                </Alert>
              )}
              <TextField<SignupRequest>
                name="name"
                autoComplete="name"
                label={t('account.name')}
                required
                rules={{ required: t('account.nameRequired') }}
              />
              <TextField<SignupRequest>
                name="email"
                type="email"
                autoComplete="email"
                label={t('account.email')}
                required
                rules={{
                  required: t('account.emailRequired'),
                  // Deliberately loose: the server decides; this only catches obvious typos.
                  pattern: { value: /^\S+@\S+$/, message: t('account.emailInvalid') },
                }}
              />
              <PasswordField<SignupRequest>
                name="password"
                autoComplete="new-password"
                label={t('account.password')}
                help={t('account.passwordHelp', { count: PASSWORD_MIN_LENGTH })}
                required
                rules={{
                  required: t('account.passwordRequired'),
                  minLength: {
                    value: PASSWORD_MIN_LENGTH,
                    message: t('account.passwordTooShort', { count: PASSWORD_MIN_LENGTH }),
                  },
                }}
              />
              <Button type="submit" loading={signup.isPending || signup.isSuccess}>
                {t('account.signupSubmit')}
              </Button>
              <Text size="sm">
                {t('account.hasAccount')}{' '}
                <Anchor
                  component={Link}
                  to={{ pathname: '/login', search: searchParams.toString() }}
                >
                  {t('account.loginLink')}
                </Anchor>
              </Text>
            </Stack>
          </form>
        </FormProvider>
      </Paper>
    </Container>
  );
}
