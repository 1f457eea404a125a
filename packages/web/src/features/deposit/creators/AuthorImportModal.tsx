import type { TFunction } from 'i18next';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FileButton,
  Group,
  Modal,
  Stack,
  Text,
  Textarea,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { CreatorFormValues } from '@cairn/shared';
import { memo, useDeferredValue, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAffiliationMatches } from './affiliation-matches';
import { useNameSuggestions, useRoles, type AffiliationHit, type NameHit } from './api';
import { parseAuthorText } from './author-import';
import { AuthorListError, resolveRows, type AuthorProblem, type ResolvedRow } from './author-table';
import { affiliationNames, creatorName } from './creator-display';
import type { CreatorListName } from './creator-rules';
import { HitSummary, SUGGEST_DEBOUNCE_MS } from './CreatorSearch';
import { observeFixedHeight, SCROLL_BOX_STYLE } from '../../shared/virtual-box';

/** How the imported entries join the list. */
export type ImportMode = 'append' | 'replace';

export interface AuthorImportModalProps {
  list: CreatorListName;
  opened: boolean;
  /** Entries the list has now: replacing is offered only when there are some. */
  currentCount: number;
  onImport: (creators: CreatorFormValues[], mode: ImportMode) => void;
  onClose: () => void;
}

/** A preview row's height: the virtualiser places rows without measuring them. */
const PREVIEW_ROW_HEIGHT = 76;
const PREVIEW_HEIGHT = PREVIEW_ROW_HEIGHT * 5;
const observePreviewHeight = observeFixedHeight(PREVIEW_HEIGHT);
/** Files above this are refused before being read: 50,000 authors are far less. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * The dialog that imports a list of creators or contributors: pasted or read from a file, in any
 * format author-table.ts reads, shown row by row with its problems before anything joins the list.
 * Rows with problems are left out unless ticked; the vocabulary's organisations are offered for
 * free-text affiliations that name one exactly, and each person without an ORCID iD can be looked
 * up in the names vocabulary. Nothing changes in the deposit form until Append or Replace.
 */
export function AuthorImportModal({ list, opened, onClose, ...rest }: AuthorImportModalProps) {
  const { t } = useTranslation();
  const isContributors = list === 'metadata.contributors';
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={isContributors ? t('creators.import.titleContributors') : t('creators.import.title')}
      size="xl"
      closeButtonProps={{ 'aria-label': t('creators.modal.close') }}
    >
      {opened && <AuthorImporter list={list} onClose={onClose} {...rest} />}
    </Modal>
  );
}

/** A row as the preview holds it: as read, or replaced by a pick from the names vocabulary. */
interface PreviewRow extends ResolvedRow {
  included: boolean;
}

function AuthorImporter({
  list,
  currentCount,
  onImport,
  onClose,
}: Omit<AuthorImportModalProps, 'opened'>) {
  const { t, i18n } = useTranslation();
  const isContributors = list === 'metadata.contributors';
  const [text, setText] = useState('');
  const [fileError, setFileError] = useState('');
  // Typing into a long table re-reads it after the key has been drawn, not before.
  const source = useDeferredValue(text);
  const roles = useRoles(list, true);
  const parsed = useMemo(() => {
    if (source.trim() === '') return null;
    try {
      return parseAuthorText(source, isContributors ? 'contributors' : 'creators');
    } catch (error) {
      if (error instanceof AuthorListError) return error;
      throw error;
    }
  }, [source, isContributors]);
  const resolved = useMemo(
    () =>
      parsed === null || parsed instanceof AuthorListError
        ? []
        : resolveRows(parsed.rows, roles.data ?? [], isContributors),
    [parsed, roles.data, isContributors],
  );
  // What the person changed, per row position, for the text read now: kept when the roles
  // arrive (the rows stay where they are), reset with a new text.
  const [edits, setEdits] = useState<{
    of: typeof parsed;
    toggled: ReadonlySet<number>;
    picked: ReadonlyMap<number, CreatorFormValues>;
  }>({ of: null, toggled: new Set(), picked: new Map() });
  const [lookup, setLookup] = useState<number | null>(null);
  if (edits.of !== parsed) {
    // React's way of resetting state when what it depends on changes, without an extra render.
    setEdits({ of: parsed, toggled: new Set(), picked: new Map() });
    setLookup(null);
  }
  const current = edits;
  const rows: PreviewRow[] = useMemo(
    () =>
      resolved.map((row, index) => {
        const picked = current.picked.get(index);
        // A person picked from the names vocabulary has a valid ORCID iD (or none) now.
        const problems = picked
          ? row.problems.filter((p) => p.kind !== 'orcidInvalid' && p.kind !== 'familyNameMissing')
          : row.problems;
        const included = (problems.length === 0) !== current.toggled.has(index);
        return { ...row, creator: picked ?? row.creator, problems, included };
      }),
    [resolved, current.picked, current.toggled],
  );
  const freeTextAffiliations = useMemo(() => {
    const names = new Set<string>();
    for (const row of resolved) {
      for (const affiliation of row.creator.affiliations) {
        if (!affiliation.id && affiliation.name) names.add(affiliation.name);
      }
    }
    return [...names].sort((a, b) => a.localeCompare(b));
  }, [resolved]);
  const [debouncedAffiliations] = useDebouncedValue(freeTextAffiliations, SUGGEST_DEBOUNCE_MS);
  const affiliationMatches = useAffiliationMatches(debouncedAffiliations, true).data;
  const [declinedMatches, setDeclinedMatches] = useState<ReadonlySet<string>>(new Set());

  const includedCount = rows.filter((row) => row.included).length;
  const problemCount = rows.filter((row) => row.problems.length > 0).length;

  function update(
    change: (draft: { toggled: Set<number>; picked: Map<number, CreatorFormValues> }) => void,
  ) {
    const next = { toggled: new Set(current.toggled), picked: new Map(current.picked) };
    change(next);
    setEdits({ of: parsed, ...next });
  }

  function toggle(index: number) {
    update((draft) => {
      if (!draft.toggled.delete(index)) draft.toggled.add(index);
    });
  }

  function pick(index: number, hit: NameHit) {
    const row = rows[index];
    if (!row) return;
    update((draft) => {
      draft.picked.set(index, {
        ...row.creator,
        person_or_org: {
          ...row.creator.person_or_org,
          family_name: hit.family_name ?? row.creator.person_or_org.family_name,
          given_name: hit.given_name ?? row.creator.person_or_org.given_name,
          identifiers: hit.identifiers.map((entry) => ({ ...entry })),
        },
        affiliations:
          row.creator.affiliations.length > 0
            ? row.creator.affiliations
            : hit.affiliations
                .filter((a) => a.id || a.name)
                .map((a) => (a.id ? { id: a.id, name: a.name ?? a.id } : { name: a.name ?? '' })),
      });
      // Picked, the row is included by default again: unless a problem other than its ORCID iD
      // remains (an unknown role), it goes in.
      draft.toggled.delete(index);
    });
    setLookup(null);
  }

  function withMatches(creator: CreatorFormValues): CreatorFormValues {
    if (!affiliationMatches || affiliationMatches.size === 0) return creator;
    return {
      ...creator,
      affiliations: creator.affiliations.map((affiliation) => {
        const match = affiliation.id ? undefined : affiliationMatches.get(affiliation.name);
        return match && !declinedMatches.has(affiliation.name)
          ? { id: match.id, name: match.name }
          : affiliation;
      }),
    };
  }

  function finish(mode: ImportMode) {
    onImport(
      rows.filter((row) => row.included).map((row) => withMatches(row.creator)),
      mode,
    );
  }

  async function readFile(file: File | null) {
    setFileError('');
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setFileError(t('creators.import.fileTooLarge', { name: file.name }));
      return;
    }
    setText(await file.text());
  }

  const error = parsed instanceof AuthorListError ? parsed : null;
  const format = parsed !== null && !(parsed instanceof AuthorListError) ? parsed : null;
  const matchedNames = freeTextAffiliations.filter((name) => affiliationMatches?.has(name));
  const lookupRow = lookup === null ? undefined : rows[lookup];

  return (
    <Stack gap="md">
      <Text size="sm">{t('creators.import.intro')}</Text>
      <Textarea
        label={t('creators.import.pasteLabel')}
        description={t('creators.import.pasteHelp')}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        // A fixed height: growing with the text (Mantine's autosize) lays all of it out again in a
        // hidden copy at every change; pasting 5,000 lines took 520–660 ms to the preview with
        // it, 320–540 ms without (bench/form's import, on a loaded machine).
        rows={6}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        data-autofocus
      />
      <Group gap="sm">
        <FileButton
          onChange={(file) => void readFile(file)}
          accept=".csv,.tsv,.txt,.json,.cff,.yaml,.yml,text/csv,text/tab-separated-values,application/json"
        >
          {(props) => (
            <Button variant="default" {...props}>
              {t('creators.import.chooseFile')}
            </Button>
          )}
        </FileButton>
        {fileError && (
          <Text size="sm" c="red" role="alert">
            {fileError}
          </Text>
        )}
      </Group>
      {error && (
        <Alert color="red" role="alert" title={t('creators.import.unreadable')}>
          {t(`creators.import.error.${error.code}`)}
        </Alert>
      )}
      {format && (
        <Text size="sm" aria-live="polite">
          {t('creators.import.summary', {
            count: rows.length,
            format: t(`creators.import.format.${format.format}`),
          })}{' '}
          {problemCount > 0 && t('creators.import.problemSummary', { count: problemCount })}
        </Text>
      )}
      {matchedNames.length > 0 && (
        <Checkbox.Group
          label={t('creators.import.affiliationMatches')}
          description={t('creators.import.affiliationMatchesHelp')}
          value={matchedNames.filter((name) => !declinedMatches.has(name))}
          onChange={(chosen) =>
            setDeclinedMatches(new Set(matchedNames.filter((name) => !chosen.includes(name))))
          }
        >
          <Stack gap={4} mt="xs">
            {matchedNames.map((name) => (
              <Checkbox
                key={name}
                value={name}
                label={matchLabel(t, name, affiliationMatches?.get(name))}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
      {lookupRow && lookup !== null && (
        <NameLookup
          row={lookupRow}
          onPick={(hit) => pick(lookup, hit)}
          onCancel={() => setLookup(null)}
        />
      )}
      {rows.length > 0 && (
        <PreviewList
          rows={rows}
          isContributors={isContributors}
          roles={roles.data}
          onToggle={toggle}
          onLookup={setLookup}
        />
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('creators.modal.cancel')}
        </Button>
        {currentCount > 0 && (
          <Button variant="light" disabled={includedCount === 0} onClick={() => finish('replace')}>
            {t('creators.import.replace', { count: includedCount })}
          </Button>
        )}
        <Button disabled={includedCount === 0} onClick={() => finish('append')}>
          {t('creators.import.append', { count: includedCount })}
        </Button>
      </Group>
      <Text size="xs" c="dimmed" lang={i18n.language}>
        {t('creators.import.exportHint')}
      </Text>
    </Stack>
  );
}

function matchLabel(t: TFunction, name: string, hit: AffiliationHit | undefined): string {
  if (!hit) return name;
  const place = [hit.location_name, hit.country_name].filter(Boolean).join(', ');
  return t('creators.import.useMatch', {
    name,
    match: place ? `${hit.name} (${place})` : hit.name,
  });
}

/** Every row read, with its problems and its include box; only the rows in view are drawn. */
const PreviewList = memo(function PreviewList({
  rows,
  isContributors,
  roles,
  onToggle,
  onLookup,
}: {
  rows: readonly PreviewRow[];
  isContributors: boolean;
  roles: ReadonlyArray<{ id: string; label: string }> | undefined;
  onToggle: (index: number) => void;
  onLookup: (index: number) => void;
}) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const labelId = useId();
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => PREVIEW_ROW_HEIGHT,
    overscan: 4,
    observeElementRect: observePreviewHeight,
  });
  const roleLabel = (id: string) => roles?.find((role) => role.id === id)?.label ?? id;
  return (
    <Box>
      <Text size="sm" fw={500} id={labelId}>
        {isContributors ? t('creators.import.previewContributors') : t('creators.import.preview')}
      </Text>
      <Box
        ref={scrollRef}
        role="region"
        aria-labelledby={labelId}
        tabIndex={0}
        style={{
          height: Math.min(rows.length * PREVIEW_ROW_HEIGHT, PREVIEW_HEIGHT),
          ...SCROLL_BOX_STYLE,
        }}
      >
        <Box
          role="list"
          aria-labelledby={labelId}
          style={{ position: 'relative', height: virtualizer.getTotalSize() }}
        >
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            const name = creatorName(row.creator) || t('creators.list.unnamed');
            const person = row.creator.person_or_org;
            const orcid = person.identifiers.find((entry) => entry.scheme === 'orcid');
            const details = [
              orcid ? `ORCID ${orcid.identifier}` : '',
              affiliationNames(row.creator).join('; '),
              row.creator.role ? roleLabel(row.creator.role) : '',
            ].filter(Boolean);
            return (
              <Box
                key={item.index}
                role="listitem"
                aria-setsize={rows.length}
                aria-posinset={item.index + 1}
                px="sm"
                py={6}
                style={{
                  position: 'absolute',
                  top: item.start,
                  left: 0,
                  right: 0,
                  height: PREVIEW_ROW_HEIGHT,
                  borderBottom: '1px solid var(--mantine-color-default-border)',
                  overflow: 'hidden',
                }}
              >
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Checkbox
                    checked={row.included}
                    onChange={() => onToggle(item.index)}
                    label={t('creators.import.rowLabel', { line: row.line, name })}
                    description={details.join(' · ')}
                    styles={{
                      description: {
                        whiteSpace: 'nowrap',
                        overflow: 'hidden',
                        textOverflow: 'ellipsis',
                      },
                    }}
                  />
                  {person.type === 'personal' && !orcid && person.family_name !== '' && (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      onClick={() => onLookup(item.index)}
                      aria-label={t('creators.import.lookupLabel', { name })}
                    >
                      {t('creators.import.lookup')}
                    </Button>
                  )}
                </Group>
                {row.problems.length > 0 && (
                  <Text size="xs" c="red.8" pl={32} truncate="end">
                    {row.problems.map((problem) => problemText(t, problem)).join(' ')}
                  </Text>
                )}
              </Box>
            );
          })}
        </Box>
      </Box>
    </Box>
  );
});

/** A problem as the preview says it. */
export function problemText(t: TFunction, problem: AuthorProblem): string {
  switch (problem.kind) {
    case 'orcidInvalid':
      return t('creators.import.problem.orcidInvalid', { value: problem.value });
    case 'identifierInvalid':
      return t('creators.import.problem.identifierInvalid', { value: problem.value });
    case 'roleUnknown':
      return t('creators.import.problem.roleUnknown', { value: problem.value });
    case 'typeUnknown':
      return t('creators.import.problem.typeUnknown', { value: problem.value });
    case 'familyNameMissing':
      return t('creators.import.problem.familyNameMissing');
    case 'nameMissing':
      return t('creators.import.problem.nameMissing');
    case 'roleMissing':
      return t('creators.import.problem.roleMissing');
    case 'affiliationIdsMismatch':
      return t('creators.import.problem.affiliationIdsMismatch');
  }
}

/** The names vocabulary's people for one row's name, to give it an ORCID iD and affiliations. */
function NameLookup({
  row,
  onPick,
  onCancel,
}: {
  row: PreviewRow;
  onPick: (hit: NameHit) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const person = row.creator.person_or_org;
  const query = [person.given_name, person.family_name].filter(Boolean).join(' ');
  const suggestions = useNameSuggestions(query);
  const name = creatorName(row.creator);
  const headingId = useId();
  return (
    <Box
      role="group"
      aria-labelledby={headingId}
      p="sm"
      style={{
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-sm)',
      }}
    >
      <Text size="sm" fw={500} id={headingId}>
        {t('creators.import.lookupTitle', { line: row.line, name })}
      </Text>
      <VisuallyHidden aria-live="polite">
        {suggestions.isFetching
          ? ''
          : t('creators.import.lookupCount', { count: suggestions.data?.length ?? 0 })}
      </VisuallyHidden>
      <Stack gap={4} mt="xs">
        {suggestions.isError && (
          <Text size="sm" c="red">
            {t('creators.import.lookupFailed')}
          </Text>
        )}
        {!suggestions.isFetching &&
          (suggestions.data ?? []).length === 0 &&
          !suggestions.isError && (
            <Text size="sm" c="dimmed">
              {t('creators.import.lookupNone')}
            </Text>
          )}
        {(suggestions.data ?? []).map((hit) => {
          const title =
            [hit.family_name, hit.given_name].filter(Boolean).join(', ') || hit.name || '';
          return (
            <Group key={hit.id} justify="space-between" wrap="nowrap">
              <HitSummary
                title={title}
                details={hit.affiliations.map((a) => a.name ?? a.id ?? '')}
                identifiers={hit.identifiers}
              />
              <Button
                size="compact-sm"
                variant="light"
                onClick={() => onPick(hit)}
                aria-label={t('creators.import.useHit', { name: title })}
              >
                {t('creators.import.use')}
              </Button>
            </Group>
          );
        })}
        <Group justify="flex-end">
          <Button size="compact-sm" variant="default" onClick={onCancel}>
            {t('creators.import.lookupClose')}
          </Button>
        </Group>
      </Stack>
    </Box>
  );
}
