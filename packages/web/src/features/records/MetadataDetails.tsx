import { Anchor, Stack, Text, Title } from '@mantine/core';
import { CUSTOM_FIELD_GROUPS, formatEdtfDate, type CustomFieldGroup } from '@cairn/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SafeHtml } from '../../components/SafeHtml';
import { PeopleList } from './CreatorsList';
import { identifierUrl, l10n, type LandingMetadata, type SchemedId } from '../shared/landing';

function Term({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Text component="dt" fw={600} size="sm">
        {label}
      </Text>
      <Text component="dd" ml={0} mb="xs" size="sm">
        {children}
      </Text>
    </>
  );
}

function Identifier({ id }: { id: SchemedId }) {
  const url = identifierUrl(id);
  const text = `${id.scheme ? `${id.scheme.toUpperCase()}: ` : ''}${id.identifier}`;
  return url ? (
    <Anchor href={url} size="sm">
      {text}
    </Anchor>
  ) : (
    <>{text}</>
  );
}

function Lines({ items }: { items: ReactNode[] }) {
  return (
    <>
      {items.map((item, i) => (
        <span key={i} style={{ display: 'block' }}>
          {item}
        </span>
      ))}
    </>
  );
}

/** A custom field group's texts, as the deposit form names them. */
interface GroupTexts {
  title: string;
  fields: Partial<Record<string, string>>;
}

/** One custom field's value in words; the meeting's identifiers as "scheme: identifier". */
function customValue(value: unknown): string {
  if (Array.isArray(value)) {
    return value
      .map((entry: { scheme?: string; identifier?: string }) =>
        [entry.scheme, entry.identifier].filter(Boolean).join(': '),
      )
      .join(', ');
  }
  return typeof value === 'string' ? value : '';
}

/**
 * The custom field groups the record carries (imprint, journal, meeting, thesis), each as one term
 * with a line per filled field, labelled as the deposit form labels them.
 */
function CustomFieldTerms({ customFields }: { customFields: Record<string, unknown> }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      {(Object.keys(CUSTOM_FIELD_GROUPS) as CustomFieldGroup[]).map((group) => {
        const values = customFields[group] as Record<string, unknown> | undefined;
        const lines = Object.keys(CUSTOM_FIELD_GROUPS[group]).flatMap((field) => {
          const value = values?.[field];
          // A thesis's dates (`date_submitted`, `date_defended`) are worded like the record's.
          const text =
            field.startsWith('date_') && typeof value === 'string'
              ? formatEdtfDate(value, i18n.language, 'long')
              : customValue(value);
          return text ? [[field, text] as const] : [];
        });
        if (lines.length === 0) return null;
        // i18next reads ':' as its namespace separator: the texts are keyed by the group's name.
        const name = group.split(':')[0] as 'journal';
        const texts: GroupTexts = t(`customFields.groups.${name}`, { returnObjects: true });
        return (
          <Term key={group} label={texts.title}>
            <Lines
              items={lines.map(([field, text]) => `${texts.fields[field] ?? field}: ${text}`)}
            />
          </Term>
        );
      })}
    </>
  );
}

/** Every metadata field the record carries beyond title, creators and description. */
export function MetadataDetails({
  metadata,
  customFields = {},
}: {
  metadata: LandingMetadata;
  customFields?: Record<string, unknown>;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const m = metadata;
  const contributors = m.contributors ?? [];
  return (
    <Stack component="section" aria-labelledby="record-details" gap="sm">
      <Title order={2} size="h3" id="record-details">
        {t('records.details')}
      </Title>
      {contributors.length > 0 && (
        <>
          <Title order={3} size="h5" id="record-contributors">
            {t('records.contributors')}
          </Title>
          <PeopleList people={contributors} labelId="record-contributors" />
        </>
      )}
      {(m.additional_descriptions ?? []).map((d, i) => (
        <div key={i}>
          <Title order={3} size="h5">
            {l10n(d.type?.title, lang) || t('records.additionalDescription')}
          </Title>
          <SafeHtml html={d.description} />
        </div>
      ))}
      <dl>
        {(m.additional_titles ?? []).length > 0 && (
          <Term label={t('records.additionalTitles')}>
            <Lines
              items={(m.additional_titles ?? []).map((a) => (
                <>
                  {a.title}
                  {a.type && ` (${l10n(a.type.title, lang) || a.type.id})`}
                </>
              ))}
            />
          </Term>
        )}
        {m.publisher && <Term label={t('records.publisher')}>{m.publisher}</Term>}
        {m.version && <Term label={t('records.version')}>{m.version}</Term>}
        {(m.languages ?? []).length > 0 && (
          <Term label={t('records.languages')}>
            {(m.languages ?? []).map((l) => l10n(l.title, lang) || l.id).join(', ')}
          </Term>
        )}
        {(m.subjects ?? []).length > 0 && (
          <Term label={t('records.subjects')}>
            {(m.subjects ?? []).map((s) => s.subject ?? s.id).join(', ')}
          </Term>
        )}
        {(m.dates ?? []).length > 0 && (
          <Term label={t('records.dates')}>
            <Lines
              items={(m.dates ?? []).map((d) => (
                <>
                  {formatEdtfDate(d.date, lang, 'long')} ({l10n(d.type?.title, lang) || d.type?.id})
                  {d.description && ` — ${d.description}`}
                </>
              ))}
            />
          </Term>
        )}
        {(m.identifiers ?? []).length > 0 && (
          <Term label={t('records.identifiers')}>
            <Lines
              items={(m.identifiers ?? []).map((id, i) => (
                <Identifier key={i} id={id} />
              ))}
            />
          </Term>
        )}
        {(m.related_identifiers ?? []).length > 0 && (
          <Term label={t('records.relatedIdentifiers')}>
            <Lines
              items={(m.related_identifiers ?? []).map((r, i) => (
                <span key={i}>
                  {l10n(r.relation_type?.title, lang) || r.relation_type?.id} <Identifier id={r} />
                  {r.resource_type &&
                    ` (${l10n(r.resource_type.title, lang) || r.resource_type.id})`}
                </span>
              ))}
            />
          </Term>
        )}
        {(m.rights ?? []).length > 0 && (
          <Term label={t('records.rights')}>
            <Lines
              items={(m.rights ?? []).map((r) => {
                const title = l10n(r.title, lang) || r.id;
                const url = r.props?.url || r.link;
                return url ? (
                  <Anchor href={url} size="sm">
                    {title}
                  </Anchor>
                ) : (
                  title
                );
              })}
            />
          </Term>
        )}
        {(m.funding ?? []).length > 0 && (
          <Term label={t('records.funding')}>
            <Lines
              items={(m.funding ?? []).map((f) =>
                [f.funder?.name ?? f.funder?.id, f.award?.number, l10n(f.award?.title, lang)]
                  .filter(Boolean)
                  .join(' — '),
              )}
            />
          </Term>
        )}
        {(m.references ?? []).length > 0 && (
          <Term label={t('records.references')}>
            <Lines items={(m.references ?? []).map((r) => r.reference)} />
          </Term>
        )}
        {(m.sizes ?? []).length > 0 && (
          <Term label={t('records.sizes')}>{(m.sizes ?? []).join(', ')}</Term>
        )}
        {(m.formats ?? []).length > 0 && (
          <Term label={t('records.formats')}>{(m.formats ?? []).join(', ')}</Term>
        )}
        <CustomFieldTerms customFields={customFields} />
      </dl>
    </Stack>
  );
}
