import { Alert, Button, Group, Stack, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessageOf } from '../../api/client';
import { useAddComment, type RequestJson } from './api';
import { textToCommentHtml } from './comment-html';

/** The comment box under the timeline; what was typed stays when sending fails. */
export function CommentForm({ request }: { request: RequestJson }) {
  const { t } = useTranslation();
  const add = useAddComment(request);
  const [text, setText] = useState('');
  const [empty, setEmpty] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    const html = textToCommentHtml(text);
    setEmpty(html === '');
    if (html === '') return;
    add.mutate(html, { onSuccess: () => setText('') });
  }

  return (
    <form onSubmit={submit} aria-label={t('requests.addComment')} noValidate>
      <Stack gap="xs">
        <Textarea
          label={t('requests.addComment')}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          error={empty ? t('requests.commentRequired') : undefined}
          rows={3}
        />
        {add.isError && (
          <Alert color="red" variant="light" role="alert">
            {serverMessageOf(add.error) ?? t('requests.commentFailed')}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={add.isPending}>
            {t('requests.comment')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
