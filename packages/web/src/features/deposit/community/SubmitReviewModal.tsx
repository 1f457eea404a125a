import { Alert, Button, Checkbox, Group, Modal, Stack, Textarea } from '@mantine/core';
import type { ReactNode } from 'react';
import { useController, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { CommunityJson } from './community-json';
import type { ReviewComment } from '../api';

/** An instance's extra checkbox (the publish modal's `extraCheckboxes` of the configuration). */
export interface ExtraCheckbox {
  /** Unique among the dialog's checkboxes. */
  id: string;
  label: ReactNode;
}

export interface SubmitReviewModalProps {
  opened: boolean;
  onClose: () => void;
  community: CommunityJson;
  /** `can_include_directly`: the record is published in the community at once. */
  directPublish: boolean;
  /** The record is already published: no "published once accepted" checkbox. */
  isPublished?: boolean;
  extraCheckboxes?: readonly ExtraCheckbox[];
  /** The message typed before a submit that failed validation (InvenioRDM keeps it too). */
  initialContent?: string;
  /** The core's submit-review action is running. */
  busy?: boolean;
  /** Every required box is ticked: the core submits, with the message as HTML (or ""). */
  onSubmit: (comment: ReviewComment) => void;
}

interface SubmitReviewValues {
  acceptAccess: boolean;
  acceptPublish: boolean;
  extra: Record<string, boolean>;
  message: string;
}

/**
 * The submit-for-review / publish-to-community dialog, as InvenioRDM's. Its checkboxes are checked
 * on submit only; the message is hidden for a direct publish.
 */
export function SubmitReviewModal({
  opened,
  onClose,
  community,
  directPublish,
  isPublished = false,
  extraCheckboxes = [],
  initialContent = '',
  busy = false,
  onSubmit,
}: SubmitReviewModalProps) {
  const { t } = useTranslation();
  assertUniqueIds(extraCheckboxes);
  const { control, handleSubmit } = useForm<SubmitReviewValues>({
    defaultValues: {
      acceptAccess: false,
      acceptPublish: false,
      extra: Object.fromEntries(extraCheckboxes.map((box) => [box.id, false])),
      message: htmlToText(initialContent),
    },
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const communityTitle = community.metadata.title ?? '';
  let variant: 'Review' | 'Direct' | 'Published' = 'Review';
  if (directPublish) variant = 'Direct';
  else if (isPublished) variant = 'Published';

  const submit = handleSubmit((values) =>
    onSubmit({ content: directPublish ? '' : textToHtml(values.message) }),
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t(`depositCommunity.submit.title${variant}`)}
      size="lg"
    >
      {/* No <form>: the dialog sits inside the deposit form, whose submit must not fire. */}
      <Stack gap="md">
        <Alert color="yellow" role="note">
          {t(`depositCommunity.submit.warn${variant}`)}
        </Alert>
        <RequiredCheckbox
          control={control}
          name="acceptAccess"
          label={t('depositCommunity.submit.acceptAccess', { community: communityTitle })}
        />
        {!isPublished && (
          <RequiredCheckbox
            control={control}
            name="acceptPublish"
            label={
              directPublish
                ? t('depositCommunity.submit.acceptPublishDirect', { community: communityTitle })
                : t('depositCommunity.submit.acceptPublish')
            }
          />
        )}
        {extraCheckboxes.map((box) => (
          <RequiredCheckbox
            key={box.id}
            control={control}
            name={`extra.${box.id}`}
            label={box.label}
          />
        ))}
        {!directPublish && <MessageField control={control} />}
        <Group justify="flex-end">
          <Button type="button" variant="default" onClick={onClose} disabled={busy}>
            {t('depositCommunity.submit.cancel')}
          </Button>
          <Button type="button" loading={busy} onClick={() => void submit()}>
            {t(`depositCommunity.submit.button${variant}`)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function RequiredCheckbox({
  control,
  name,
  label,
}: {
  control: Control<SubmitReviewValues>;
  name: 'acceptAccess' | 'acceptPublish' | `extra.${string}`;
  label: ReactNode;
}) {
  const { t } = useTranslation();
  const {
    field: { ref, value, onChange, onBlur },
    fieldState: { error },
  } = useController({
    control,
    name,
    rules: { validate: (checked) => checked === true || t('depositCommunity.submit.mustAccept') },
  });
  return (
    <Checkbox
      ref={ref}
      label={label}
      checked={value === true}
      onChange={(event) => onChange(event.currentTarget.checked)}
      onBlur={onBlur}
      error={error?.message}
    />
  );
}

function MessageField({ control }: { control: Control<SubmitReviewValues> }) {
  const { t } = useTranslation();
  const {
    field: { ref, value, onChange, onBlur, name },
  } = useController({ control, name: 'message' });
  return (
    <Textarea
      ref={ref}
      name={name}
      label={t('depositCommunity.submit.message')}
      rows={4}
      value={value}
      onChange={onChange}
      onBlur={onBlur}
    />
  );
}

/** The ids of extra checkboxes must be unique, or their answers would mix. */
function assertUniqueIds(boxes: readonly ExtraCheckbox[]) {
  const seen = new Set<string>();
  for (const box of boxes) {
    if (seen.has(box.id)) {
      throw new Error(`Extra checkboxes need unique ids: "${box.id}" is used twice.`);
    }
    seen.add(box.id);
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** The typed message as the HTML comment the request API stores: escaped, one <p> per paragraph. */
export function textToHtml(text: string): string {
  const paragraphs = text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
  return paragraphs
    .map((paragraph) => {
      const escaped = paragraph.replace(/[&<>"]/g, (char) => ESCAPES[char] ?? char);
      return `<p>${escaped.replace(/\n/g, '<br>')}</p>`;
    })
    .join('');
}

/** The inverse of {@link textToHtml}, for a message kept from a failed submit. */
function htmlToText(html: string): string {
  return html
    .replace(/<\/p><p>/g, '\n\n')
    .replace(/<br>/g, '\n')
    .replace(/<\/?p>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');
}
