import { formatEdtfDate, type RecordData } from '@cairn/shared';
import type { VocabularyEntry } from '../vocabularies/vocabularies.repository.js';

/** Picks the requested locale, then the default, then English, then anything. */
export function l10n(map: Record<string, string> | undefined, locale: string): string {
  if (!map) return '';
  return map[locale] ?? map.en ?? Object.values(map)[0] ?? '';
}

const ACCESS_STATUS: Record<
  string,
  {
    title: Record<string, string>;
    description: Record<string, string>;
    icon: string;
    messageClass: string;
  }
> = {
  open: {
    title: { en: 'Open', de: 'Offen' },
    description: {
      en: 'The record and files are publicly accessible.',
      de: 'Datensatz und Dateien sind öffentlich zugänglich.',
    },
    icon: 'unlock',
    messageClass: '',
  },
  'metadata-only': {
    title: { en: 'Metadata-only', de: 'Nur Metadaten' },
    description: {
      en: 'No files are available for this record.',
      de: 'Für diesen Datensatz sind keine Dateien verfügbar.',
    },
    icon: 'tag',
    messageClass: '',
  },
  embargoed: {
    title: { en: 'Embargoed', de: 'Gesperrt' },
    description: {
      en: 'The files will be made publicly available on the embargo date.',
      de: 'Die Dateien werden am Ende der Sperrfrist öffentlich zugänglich.',
    },
    icon: 'outline clock',
    messageClass: 'warning',
  },
  restricted: {
    title: { en: 'Restricted', de: 'Eingeschränkt' },
    description: {
      en: 'The record can only be accessed by users specified in the permissions.',
      de: 'Nur in den Berechtigungen genannte Personen haben Zugriff.',
    },
    icon: 'ban',
    messageClass: 'negative',
  },
};

/** An access status's name in `locale` (a search facet's bucket). */
export function accessStatusTitle(status: string, locale: string): string {
  return l10n(ACCESS_STATUS[status]?.title, locale) || status;
}

export interface UiContext {
  locale: string;
  vocab: (type: string, id: string) => VocabularyEntry | undefined;
  accessStatus: string;
  created: string;
  updated: string;
  isDraft: boolean;
  /** Whether `ui` lists the creators and contributors with their labels. */
  people: boolean;
}

function stripHtml(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

type Named = {
  person_or_org?: { name?: string; type?: string; identifiers?: unknown[] };
  affiliations?: Array<{ id?: string; name?: string }>;
  role?: { id?: string };
};

function peopleUi(list: Named[] | undefined, roleType: string, ctx: UiContext) {
  const affiliations: Array<[number, string]> = [];
  const index = new Map<string, number>();
  const people = (list ?? []).map((p) => ({
    ...p,
    ...(p.role?.id
      ? { role: { id: p.role.id, title: l10n(ctx.vocab(roleType, p.role.id)?.title, ctx.locale) } }
      : {}),
    affiliations: (p.affiliations ?? []).map((a) => {
      const name = a.name ?? a.id ?? '';
      let i = index.get(name);
      if (i === undefined) {
        i = affiliations.length + 1;
        index.set(name, i);
        affiliations.push([i, name]);
      }
      return [i, name];
    }),
  }));
  return { [roleType === 'creatorsroles' ? 'creators' : 'contributors']: people, affiliations };
}

/** The `ui` object of the vnd.inveniordm.v1+json representation: display-ready, localised. */
export function buildUi(data: RecordData, ctx: UiContext): Record<string, unknown> {
  const m = data.metadata as Record<string, unknown> & {
    publication_date?: string;
    resource_type?: { id: string };
    languages?: Array<{ id: string }>;
    rights?: Array<{
      id?: string;
      title?: Record<string, string>;
      description?: Record<string, string>;
      link?: string;
    }>;
    description?: string;
    version?: string;
    creators?: Named[];
    contributors?: Named[];
  };
  const status = ACCESS_STATUS[ctx.accessStatus] ?? ACCESS_STATUS.open!;
  const embargoUntil = data.access.embargo?.until;
  const ui: Record<string, unknown> = {
    created_date_l10n_long: formatEdtfDate(ctx.created.slice(0, 10), ctx.locale, 'long'),
    updated_date_l10n_long: formatEdtfDate(ctx.updated.slice(0, 10), ctx.locale, 'long'),
    access_status: {
      id: ctx.accessStatus,
      title_l10n: l10n(status.title, ctx.locale),
      description_l10n: l10n(status.description, ctx.locale),
      icon: status.icon,
      embargo_date_l10n: embargoUntil ? formatEdtfDate(embargoUntil, ctx.locale, 'long') : null,
      message_class: status.messageClass,
    },
    is_draft: ctx.isDraft,
    ...(ctx.people
      ? {
          creators: peopleUi(m.creators, 'creatorsroles', ctx),
          contributors: peopleUi(m.contributors, 'contributorsroles', ctx),
        }
      : {}),
  };
  if (m.publication_date) {
    ui.publication_date_l10n_medium = formatEdtfDate(m.publication_date, ctx.locale, 'medium');
    ui.publication_date_l10n_long = formatEdtfDate(m.publication_date, ctx.locale, 'long');
  }
  if (m.resource_type?.id) {
    const e = ctx.vocab('resourcetypes', m.resource_type.id);
    ui.resource_type = { id: m.resource_type.id, title_l10n: l10n(e?.title, ctx.locale) };
  }
  if (m.languages)
    ui.languages = m.languages.map((l) => ({
      id: l.id,
      title_l10n: l10n(ctx.vocab('languages', l.id)?.title, ctx.locale),
    }));
  if (m.rights) {
    ui.rights = m.rights.map((r) => {
      if (r.id) {
        const e = ctx.vocab('licenses', r.id);
        return {
          id: r.id,
          title_l10n: l10n(e?.title, ctx.locale),
          description_l10n: l10n(e?.description, ctx.locale),
          icon: e?.icon,
          link: e?.props?.url,
          props: e?.props ?? {},
        };
      }
      return {
        title_l10n: l10n(r.title, ctx.locale),
        description_l10n: l10n(r.description, ctx.locale),
        link: r.link,
      };
    });
  }
  if (m.description) ui.description_stripped = stripHtml(m.description);
  if (m.version) ui.version = m.version;
  return ui;
}
