import { Anchor, Button, Group, List, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { identifierOf, l10n, personName, type Person } from '../shared/landing';

/** How many people show at first, and how many more each "Show more" adds. */
export const PEOPLE_PAGE = 25;
const SHOW_MORE_STEP = 500;

/**
 * Creators or contributors with their ORCID or ROR link, role and affiliations. A list of 2,000
 * shows its first page only, and grows a page at a time on request, so a huge author list costs
 * the first paint nothing.
 */
export function PeopleList({ people, labelId }: { people: Person[]; labelId: string }) {
  const { t, i18n } = useTranslation();
  const [shown, setShown] = useState(PEOPLE_PAGE);
  const visible = people.slice(0, shown);
  const remaining = people.length - visible.length;

  return (
    <>
      <List listStyleType="none" spacing={4} aria-labelledby={labelId}>
        {visible.map((person, index) => {
          const p = person.person_or_org;
          const isOrg = p?.type === 'organizational';
          const orcid = isOrg ? undefined : identifierOf(p?.identifiers, 'orcid');
          const ror = isOrg ? identifierOf(p?.identifiers, 'ror') : undefined;
          const name = personName(p);
          const role = l10n(person.role?.title, i18n.language);
          const affiliations = (person.affiliations ?? []).filter((a) => a.name?.trim());
          return (
            <List.Item key={index}>
              <Text span fw={500}>
                {name}
              </Text>
              {orcid && (
                <>
                  {' '}
                  <Anchor
                    href={`https://orcid.org/${orcid}`}
                    size="sm"
                    aria-label={t('records.orcidOf', { name })}
                  >
                    ORCID
                  </Anchor>
                </>
              )}
              {ror && (
                <>
                  {' '}
                  <Anchor
                    href={`https://ror.org/${ror}`}
                    size="sm"
                    aria-label={t('records.rorOf', { name })}
                  >
                    ROR
                  </Anchor>
                </>
              )}
              {role && (
                <Text span size="sm" c="dimmed">
                  {' '}
                  ({role})
                </Text>
              )}
              {affiliations.length > 0 && (
                <Text span size="sm" c="dimmed">
                  {' — '}
                  {affiliations.map((a, i) => (
                    <span key={i}>
                      {i > 0 && '; '}
                      {a.id ? (
                        <Anchor href={`https://ror.org/${a.id}`} size="sm" inherit>
                          {a.name}
                        </Anchor>
                      ) : (
                        a.name
                      )}
                    </span>
                  ))}
                </Text>
              )}
            </List.Item>
          );
        })}
      </List>
      {remaining > 0 && (
        <Group gap="xs">
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => setShown((n) => n + SHOW_MORE_STEP)}
          >
            {t('records.showMorePeople', { count: Math.min(remaining, SHOW_MORE_STEP) })}
          </Button>
          <Text size="sm" c="dimmed">
            {t('records.peopleShown', { shown: visible.length, total: people.length })}
          </Text>
        </Group>
      )}
    </>
  );
}
