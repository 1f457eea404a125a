import { Alert, Button, Group, Paper, Stack, Title } from '@mantine/core';
import { communitySlugMessages } from '@cairn/shared';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { RadioGroupField } from '../../components/form/RadioGroupField';
import { SelectField } from '../../components/form/SelectField';
import { TextField } from '../../components/form/TextField';
import { applyServerErrors } from '../shared/server-errors';
import { useCreateCommunity, type NewCommunity } from './api';

const FIELDS = [
  'slug',
  'metadata.title',
  'metadata.description',
  'access.visibility',
  'access.review_policy',
  'access.record_submission_policy',
] as const;

const TITLE_MAX = 250;
const DESCRIPTION_MAX = 250;

/** `/communities/new`: the creator becomes the new community's owner. */
export function NewCommunityPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateCommunity();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<NewCommunity>({
    defaultValues: {
      slug: '',
      metadata: { title: '', description: '' },
      access: { visibility: 'public', review_policy: 'closed', record_submission_policy: 'open' },
    },
  });

  const handleSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const community = await create.mutateAsync(values);
      void navigate(`/communities/${encodeURIComponent(community.slug ?? community.id)}`);
    } catch (error) {
      setFormError(
        applyServerErrors(form.setError, error, {
          fields: FIELDS,
          fallbackMessage: t('communities.createFailed'),
        }),
      );
    }
  });

  return (
    <Paper withBorder p="lg" radius="md" maw={720}>
      <FormProvider {...form}>
        <form noValidate onSubmit={(event) => void handleSubmit(event)}>
          <Stack>
            <Title order={1}>{t('communities.newTitle')}</Title>
            {formError && (
              <Alert color="red" variant="light" role="alert">
                {formError}
              </Alert>
            )}
            <TextField<NewCommunity>
              name="metadata.title"
              label={t('communities.fieldTitle')}
              required
              maxLength={TITLE_MAX}
              rules={{
                validate: (value) =>
                  typeof value === 'string' && value.trim() !== ''
                    ? true
                    : t('communities.titleRequired'),
              }}
            />
            <TextField<NewCommunity>
              name="slug"
              label={t('communities.fieldSlug')}
              help={t('communities.slugHelp')}
              required
              autoComplete="off"
              rules={{
                // The API's own words (shared), so the form and a refused request agree.
                validate: (value) =>
                  typeof value === 'string' ? communitySlugMessages(value).join(' ') || true : true,
              }}
            />
            <TextField<NewCommunity>
              name="metadata.description"
              label={t('communities.fieldDescription')}
              maxLength={DESCRIPTION_MAX}
            />
            <RadioGroupField<NewCommunity>
              name="access.visibility"
              label={t('communities.fieldVisibility')}
              options={(['public', 'restricted'] as const).map((value) => ({
                value,
                label: t(`communities.visibility.${value}`),
              }))}
            />
            <RadioGroupField<NewCommunity>
              name="access.record_submission_policy"
              label={t('communities.fieldSubmissionPolicy')}
              options={(['open', 'closed'] as const).map((value) => ({
                value,
                label: t(`communities.policy.submission.${value}`),
              }))}
            />
            <SelectField<NewCommunity>
              name="access.review_policy"
              label={t('communities.fieldReviewPolicy')}
              allowDeselect={false}
              options={(['closed', 'open', 'members'] as const).map((value) => ({
                value,
                label: t(`communities.policy.review.${value}`),
              }))}
            />
            <Group>
              <Button type="submit" loading={create.isPending}>
                {t('communities.create')}
              </Button>
              <Button component={Link} to="/communities" variant="default">
                {t('communities.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      </FormProvider>
    </Paper>
  );
}
