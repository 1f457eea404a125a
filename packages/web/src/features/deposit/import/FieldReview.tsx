import { Box, Checkbox, Stack, Text } from '@mantine/core';
import type { MetadataFormValues } from '@cairn/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { excerptOf, plainTextOf } from '../../../lib/plain-text';
import { creatorName, affiliationNames } from '../creators/creator-display';
import type { ValueLabels } from './import-lookups';
import { isEmpty, type ReviewField } from './import-merge';
import { IMPORT_NS } from './import-strings';

/** Lines shown per side of a field; the rest are counted. */
const MAX_LINES = 8;
/** A description is shown as its start. */
const EXCERPT_CHARS = 240;

/** One field of the review: its box to take it, what the import sets and what the form holds. */
export function FieldReview({
  entry,
  checked,
  onToggle,
  labels,
}: {
  entry: ReviewField;
  checked: boolean;
  onToggle: () => void;
  labels: ValueLabels;
}) {
  const { t } = useTranslation(IMPORT_NS);
  const valuesId = useId();
  return (
    <Box
      p="sm"
      style={{
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-sm)',
      }}
    >
      <Checkbox
        checked={checked}
        onChange={onToggle}
        label={t(`fields.${entry.field}`)}
        aria-describedby={valuesId}
        styles={{ label: { fontWeight: 600 } }}
      />
      <Box
        id={valuesId}
        mt="xs"
        pl={32}
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fit, minmax(14rem, 1fr))',
          gap: 'var(--mantine-spacing-md)',
        }}
      >
        <Side title={t('imported')} lines={linesOf(entry.field, entry.imported, labels)} />
        <Side
          title={t('current')}
          lines={isEmpty(entry.current) ? [] : linesOf(entry.field, entry.current, labels)}
        />
      </Box>
      {entry.unmatched.length > 0 && (
        <Stack gap={2} mt="xs" pl={32}>
          {entry.unmatched.map((unmatched) => (
            <Text
              size="xs"
              c="var(--mantine-color-orange-light-color)"
              key={`${unmatched.field}-${unmatched.value}`}
            >
              {unmatched.kept === 'free_text'
                ? t('freeText', { value: unmatched.value })
                : t('leftOut', { value: unmatched.value })}
            </Text>
          ))}
        </Stack>
      )}
    </Box>
  );
}

function Side({ title, lines }: { title: string; lines: string[] }) {
  const { t } = useTranslation(IMPORT_NS);
  const shown = lines.slice(0, MAX_LINES);
  return (
    <Box>
      <Text size="xs" c="dimmed" fw={500}>
        {title}
      </Text>
      {shown.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('empty')}
        </Text>
      ) : (
        shown.map((line, index) => (
          // Lines can repeat (two creators of the same name): their place tells them apart.
          <Text size="sm" key={index} style={{ overflowWrap: 'anywhere' }}>
            {line}
          </Text>
        ))
      )}
      {lines.length > MAX_LINES && (
        <Text size="xs" c="dimmed">
          {t('more', { count: lines.length - MAX_LINES })}
        </Text>
      )}
    </Box>
  );
}

/** A field's value as lines of text, one per entry. */
export function linesOf(
  field: ReviewField['field'],
  value: MetadataFormValues[ReviewField['field']],
  labels: ValueLabels,
): string[] {
  const m = { [field]: value } as Partial<MetadataFormValues>;
  const joined = (...parts: Array<string | undefined>) =>
    parts.filter((part) => part !== undefined && part !== '').join(' · ');
  switch (field) {
    case 'title':
    case 'publication_date':
    case 'version':
    case 'publisher':
      return [m[field] ?? ''];
    case 'resource_type':
      return [labels('resourcetypes', m.resource_type ?? '')];
    case 'description':
      return [excerptOf(plainTextOf(m.description ?? ''), EXCERPT_CHARS)];
    case 'additional_titles':
      return (m.additional_titles ?? []).map((entry) => entry.title);
    case 'additional_descriptions':
      return (m.additional_descriptions ?? []).map((entry) =>
        excerptOf(plainTextOf(entry.description), EXCERPT_CHARS),
      );
    case 'creators':
    case 'contributors':
      return (m[field] ?? []).map((creator) => {
        const orcid = creator.person_or_org.identifiers.find((id) => id.scheme === 'orcid');
        return joined(
          creatorName(creator),
          orcid ? `ORCID ${orcid.identifier}` : undefined,
          affiliationNames(creator).join('; '),
          creator.role ? labels(`${field}roles`, creator.role) : undefined,
        );
      });
    case 'rights':
      return (m.rights ?? []).map(
        (right) => right.title ?? (right.id ? labels('licenses', right.id) : ''),
      );
    case 'languages':
      return (m.languages ?? []).map((id) => labels('languages', id));
    case 'subjects':
      return [(m.subjects ?? []).map((subject) => subject.subject).join(', ')];
    case 'dates':
      return (m.dates ?? []).map((date) =>
        joined(date.date, date.type ? labels('datetypes', date.type) : undefined, date.description),
      );
    case 'funding':
      return (m.funding ?? []).map((entry) =>
        joined(
          entry.funder.name ?? entry.funder.title ?? entry.funder.id,
          entry.award.title,
          entry.award.number,
        ),
      );
    case 'identifiers':
      return (m.identifiers ?? []).map((id) => `${id.scheme}: ${id.identifier}`);
    case 'related_identifiers':
      return (m.related_identifiers ?? []).map((id) =>
        joined(
          id.relation_type ? labels('relationtypes', id.relation_type) : undefined,
          `${id.scheme}: ${id.identifier}`,
        ),
      );
    case 'references':
      return (m.references ?? []).map((entry) => entry.reference);
  }
}
