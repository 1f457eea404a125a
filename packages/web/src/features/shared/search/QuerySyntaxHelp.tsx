import {
  Button,
  CloseButton,
  Code,
  Group,
  Popover,
  Stack,
  Text,
  type MantineSize,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The query syntax a reader can use, each with an example (InvenioRDM's, as the API takes it). */
const EXAMPLES = [
  ['words', 'glacier ice'],
  ['phrase', '"ice sheet"'],
  ['field', 'metadata.title:glacier'],
  ['range', 'metadata.publication_date:[2019 TO 2021]'],
  ['operators', 'glacier AND NOT arctic'],
  ['exclude', 'glacier -arctic'],
  ['wildcard', 'glaci*'],
  ['group', 'glacier AND (ice OR snow)'],
] as const;

/** A button beside the search box that opens a short guide to the query syntax. */
export function QuerySyntaxHelp({ size }: { size?: MantineSize }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const meanings: Record<(typeof EXAMPLES)[number][0], string> = {
    words: t('search.syntax.words'),
    phrase: t('search.syntax.phrase'),
    field: t('search.syntax.field'),
    range: t('search.syntax.range'),
    operators: t('search.syntax.operators'),
    exclude: t('search.syntax.exclude'),
    wildcard: t('search.syntax.wildcard'),
    group: t('search.syntax.group'),
  };
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      width="min(28rem, 92vw)"
      trapFocus
      returnFocus
      withArrow
      shadow="md"
    >
      <Popover.Target>
        <Button variant="subtle" size={size} onClick={() => setOpened((o) => !o)}>
          {t('search.syntax.open')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown aria-labelledby="query-syntax-title">
        <Group justify="space-between" wrap="nowrap" mb="xs">
          <Text fw={600} id="query-syntax-title">
            {t('search.syntax.title')}
          </Text>
          <CloseButton aria-label={t('app.close')} onClick={() => setOpened(false)} />
        </Group>
        <Stack component="dl" gap={6} m={0}>
          {EXAMPLES.map(([kind, example]) => (
            <div key={kind}>
              <Text component="dt" size="sm">
                <Code>{example}</Code>
              </Text>
              <Text component="dd" size="sm" ms="md">
                {meanings[kind]}
              </Text>
            </div>
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
