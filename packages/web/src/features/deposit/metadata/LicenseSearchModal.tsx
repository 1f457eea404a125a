import {
  Anchor,
  Button,
  Group,
  Loader,
  Modal,
  Pagination,
  Radio,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { SEARCH_MAX_WINDOW, type RightsFormValues } from '@cairn/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LICENSE_PAGE_SIZE, useLicenseSearch, type LicenseFilter, type VocabularyHit } from './api';
import { truncateDescription } from './truncate';

const FILTERS: readonly LicenseFilter[] = ['recommended', 'all', 'data', 'software'];

export interface LicenseSearchModalProps {
  opened: boolean;
  /** Ids already chosen: shown as such and not offered again. */
  chosen: readonly string[];
  onClose: () => void;
  onSubmit: (license: RightsFormValues) => void;
  /** "Did not find your license?": switches to the custom licence dialog. */
  onCustom: () => void;
}

/** A vocabulary licence as the form keeps it: its id, title and description for display. */
export function toRightsValues(hit: VocabularyHit): RightsFormValues {
  const url = hit.props?.url;
  return {
    id: hit.id,
    title: hit.title_l10n,
    ...(hit.description_l10n ? { description: hit.description_l10n } : {}),
    ...(typeof url === 'string' ? { link: url } : {}),
  };
}

/**
 * The standard licence picker, as InvenioRDM's: search, the recommended / all / data / software
 * toggles, one page at a time, descriptions cut to the shared maximum.
 */
export function LicenseSearchModal(props: LicenseSearchModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('metadata.licenses.standardTitle')}
      size="xl"
    >
      {props.opened && <LicenseSearch {...props} />}
    </Modal>
  );
}

function LicenseSearch({ chosen, onClose, onSubmit, onCustom }: LicenseSearchModalProps) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<LicenseFilter>('recommended');
  const [text, setText] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string | null>(null);
  const search = useLicenseSearch(filter, text, page);
  const hits = search.data?.hits ?? [];
  const total = Math.min(search.data?.total ?? 0, SEARCH_MAX_WINDOW);
  const pages = Math.max(1, Math.ceil(total / LICENSE_PAGE_SIZE));
  const picked = hits.find((hit) => hit.id === selected);

  return (
    <Stack>
      <TextInput
        label={t('metadata.licenses.search')}
        type="search"
        value={text}
        data-autofocus
        onChange={(event) => {
          setText(event.currentTarget.value);
          setPage(1);
          // Searching looks through every licence, as InvenioRDM does.
          if (event.currentTarget.value.trim() !== '') setFilter('all');
        }}
      />
      <Group gap="xs" role="group" aria-label={t('metadata.licenses.filters')}>
        {FILTERS.map((name) => (
          <Button
            key={name}
            size="xs"
            variant={filter === name ? 'filled' : 'default'}
            aria-pressed={filter === name}
            onClick={() => {
              setFilter(name);
              setPage(1);
            }}
          >
            {t(`metadata.licenses.filter.${name}`)}
          </Button>
        ))}
        {search.isFetching && <Loader size="xs" aria-label={t('metadata.searching')} />}
      </Group>
      <Radio.Group
        label={t('metadata.licenses.results', { count: total })}
        value={selected}
        onChange={setSelected}
      >
        <Stack gap="xs" mt="xs">
          {hits.length === 0 && !search.isFetching && (
            <Text c="dimmed">{t('metadata.nothingFound')}</Text>
          )}
          {hits.map((hit) => {
            const isChosen = chosen.includes(hit.id);
            return (
              <Radio
                key={hit.id}
                value={hit.id}
                disabled={isChosen}
                label={
                  isChosen
                    ? t('metadata.licenses.alreadyChosen', { title: hit.title_l10n })
                    : hit.title_l10n
                }
                description={
                  hit.description_l10n ? truncateDescription(hit.description_l10n) : undefined
                }
              />
            );
          })}
        </Stack>
      </Radio.Group>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({
            'aria-label':
              control === 'previous'
                ? t('metadata.previousPage')
                : control === 'next'
                  ? t('metadata.nextPage')
                  : control,
          })}
          getItemProps={(item) => ({ 'aria-label': t('metadata.page', { page: item }) })}
        />
      )}
      <Text size="sm">
        {t('metadata.licenses.notFound')}{' '}
        <Anchor component="button" type="button" onClick={onCustom}>
          {t('metadata.licenses.addCustomInstead')}
        </Anchor>
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('metadata.cancel')}
        </Button>
        <Button
          disabled={!picked}
          onClick={() => {
            if (!picked) return;
            onSubmit(toRightsValues(picked));
            onClose();
          }}
        >
          {t('metadata.licenses.submit')}
        </Button>
      </Group>
    </Stack>
  );
}
