import type { GrantPermission } from '@cairn/shared';
import { escapeHtml } from '../../lib/html.js';
import { htmlToText } from '../../lib/record-text.js';
import type { OutgoingMail } from './outbox.repository.js';

/** Why someone is written to about a request. */
export type RequestEvent =
  'submitted' | 'commented' | 'accepted' | 'declined' | 'cancelled' | 'expired';

/** What a message about a request says; every string but `link` and `site` is user input. */
export interface RequestMessage {
  event: RequestEvent;
  requestType: string;
  title: string;
  community: string;
  /** Who acted (their display name); undefined when the system did (expiry). */
  actor?: string;
  /** The comment, or the words that came with an action, as stored (sanitised HTML). */
  comment?: string;
  /** `{site}/me/requests/{id}`. */
  link: string;
  siteName: string;
  /** Where a person turns e-mail off. */
  settingsLink: string;
}

interface Wording {
  subject: string;
  /** The opening sentence. */
  lead: string;
}

type Words = (m: RequestMessage) => Wording;

/** A request for access to a record goes to its owner, not to a community. */
function isAccessRequest(m: RequestMessage): boolean {
  return m.requestType === 'user-access-request' || m.requestType === 'guest-access-request';
}

/** The community in a sentence, between `before` and `after`; nothing for a request to a person. */
function within(m: RequestMessage, before: string, after = ''): string {
  return m.community ? `${before}${m.community}${after}` : '';
}

/**
 * The texts, per language. Quotation marks are each language's own; every value placed in them is
 * text here and escaped only when the HTML part is written.
 */
interface Language {
  events: Record<RequestEvent, Words>;
  open: string;
  footer: (m: RequestMessage) => string;
}

const WORDINGS: Record<'en' | 'de', Language> = {
  en: {
    events: {
      submitted: (m) =>
        m.requestType === 'community-invitation'
          ? {
              subject: `You are invited to join ${m.community}`,
              lead: `${m.actor ?? m.siteName} invites you to join the community ${m.community}. Accept or decline the invitation on its page.`,
            }
          : m.requestType === 'community-membership-request'
            ? {
                subject: `New request to join ${m.community}`,
                lead: `${m.actor ?? m.siteName} asks to join the community ${m.community}.`,
              }
            : m.requestType === 'community-inclusion'
              ? {
                  subject: `New inclusion request for ${m.community}: ${m.title}`,
                  lead: `${m.actor ?? m.siteName} asks to include “${m.title}” in ${m.community}.`,
                }
              : isAccessRequest(m)
                ? {
                    subject: `New request for access to “${m.title}”`,
                    lead: `${m.actor ?? 'A guest'} asks for access to the files of “${m.title}”.`,
                  }
                : {
                    subject: `New submission to ${m.community}: ${m.title}`,
                    lead: `${m.actor ?? m.siteName} submitted “${m.title}” to ${m.community} for review.`,
                  },
      commented: (m) => ({
        subject: `New comment on “${m.title}”`,
        lead: `${m.actor ?? m.siteName} commented on the request “${m.title}”${within(m, ' (', ')')}.`,
      }),
      accepted: (m) =>
        m.requestType === 'community-invitation'
          ? {
              subject: `${m.actor ?? m.siteName} joined ${m.community}`,
              lead: `${m.actor ?? m.siteName} accepted your invitation to join ${m.community}.`,
            }
          : {
              subject: `Your request “${m.title}” was accepted`,
              lead: `${m.actor ?? m.siteName} accepted your request “${m.title}”${within(m, ' to ')}.`,
            },
      declined: (m) => ({
        subject: `Your request “${m.title}” was declined`,
        lead: `${m.actor ?? m.siteName} declined your request “${m.title}”${within(m, ' to ')}.`,
      }),
      cancelled: (m) => ({
        subject: `Your request “${m.title}” was cancelled`,
        lead: `${m.actor ?? m.siteName} cancelled your request “${m.title}”${within(m, ' to ')}.`,
      }),
      expired: (m) => ({
        subject: `Your request “${m.title}” expired`,
        lead: `Your request “${m.title}”${within(m, ' to ')} expired without a decision.`,
      }),
    },
    open: 'Open the request',
    footer: (m) =>
      `You receive this e-mail because you take part in this request on ${m.siteName}. You can turn e-mail notifications off on your account page:`,
  },
  de: {
    events: {
      submitted: (m) =>
        m.requestType === 'community-invitation'
          ? {
              subject: `Einladung in die Community ${m.community}`,
              lead: `${m.actor ?? m.siteName} lädt Sie in die Community ${m.community} ein. Nehmen Sie die Einladung auf ihrer Seite an oder lehnen Sie sie ab.`,
            }
          : m.requestType === 'community-membership-request'
            ? {
                subject: `Neue Beitrittsanfrage für ${m.community}`,
                lead: `${m.actor ?? m.siteName} möchte der Community ${m.community} beitreten.`,
              }
            : m.requestType === 'community-inclusion'
              ? {
                  subject: `Neue Aufnahmeanfrage für ${m.community}: ${m.title}`,
                  lead: `${m.actor ?? m.siteName} möchte „${m.title}“ in ${m.community} aufnehmen lassen.`,
                }
              : isAccessRequest(m)
                ? {
                    subject: `Neue Zugangsanfrage für „${m.title}“`,
                    lead: `${m.actor ?? 'Ein Gast'} bittet um Zugang zu den Dateien von „${m.title}“.`,
                  }
                : {
                    subject: `Neue Einreichung bei ${m.community}: ${m.title}`,
                    lead: `${m.actor ?? m.siteName} hat „${m.title}“ zur Prüfung bei ${m.community} eingereicht.`,
                  },
      commented: (m) => ({
        subject: `Neuer Kommentar zu „${m.title}“`,
        lead: `${m.actor ?? m.siteName} hat die Anfrage „${m.title}“${within(m, ' (', ')')} kommentiert.`,
      }),
      accepted: (m) =>
        m.requestType === 'community-invitation'
          ? {
              subject: `${m.actor ?? m.siteName} ist ${m.community} beigetreten`,
              lead: `${m.actor ?? m.siteName} hat Ihre Einladung in die Community ${m.community} angenommen.`,
            }
          : {
              subject: `Ihre Anfrage „${m.title}“ wurde angenommen`,
              lead: `${m.actor ?? m.siteName} hat Ihre Anfrage „${m.title}“${within(m, ' an ')} angenommen.`,
            },
      declined: (m) => ({
        subject: `Ihre Anfrage „${m.title}“ wurde abgelehnt`,
        lead: `${m.actor ?? m.siteName} hat Ihre Anfrage „${m.title}“${within(m, ' an ')} abgelehnt.`,
      }),
      cancelled: (m) => ({
        subject: `Ihre Anfrage „${m.title}“ wurde zurückgezogen`,
        lead: `${m.actor ?? m.siteName} hat Ihre Anfrage „${m.title}“${within(m, ' an ')} zurückgezogen.`,
      }),
      expired: (m) => ({
        subject: `Ihre Anfrage „${m.title}“ ist abgelaufen`,
        lead: `Ihre Anfrage „${m.title}“${within(m, ' an ')} ist abgelaufen, ohne dass darüber entschieden wurde.`,
      }),
    },
    open: 'Zur Anfrage',
    footer: (m) =>
      `Sie erhalten diese E-Mail, weil Sie an dieser Anfrage auf ${m.siteName} beteiligt sind. E-Mail-Benachrichtigungen schalten Sie auf Ihrer Kontoseite ab:`,
  },
};

/** The languages messages are written in; anything else gets the first. */
export const MAIL_LANGUAGES = Object.keys(WORDINGS) as Array<keyof typeof WORDINGS>;

/** Line breaks and other controls end a header: a title must stay on the subject line. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

/** The language of a message: the person's (`en_US` reads as `en`), else English. */
export function mailLanguage(locale: string | null | undefined): keyof typeof WORDINGS {
  const language = (locale ?? '').slice(0, 2).toLowerCase();
  return (MAIL_LANGUAGES as string[]).includes(language)
    ? (language as keyof typeof WORDINGS)
    : 'en';
}

/** A message's parts in the reader's language, laid out by `composeMail`. */
interface MailParts {
  subject: string;
  lead: string;
  /** Words someone wrote, as text, quoted below the lead. */
  quote: string;
  link: string;
  open: string;
  footer: string;
  settingsLink: string;
}

/** Plain text and HTML of one message; every part is text, escaped in the HTML. */
function composeMail(
  to: string,
  locale: string | null | undefined,
  parts: MailParts,
): OutgoingMail {
  const { subject, lead, quote, link, open, footer, settingsLink } = parts;
  const text = [
    lead,
    ...(quote ? ['', ...quote.split('\n').map((line) => `> ${line}`)] : []),
    '',
    `${open}: ${link}`,
    '',
    '-- ',
    footer,
    settingsLink,
    '',
  ].join('\n');
  const paragraph = (body: string) => `<p>${body}</p>`;
  const html = [
    '<!DOCTYPE html>',
    `<html lang="${mailLanguage(locale)}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>`,
    paragraph(escapeHtml(lead)),
    ...(quote
      ? [
          `<blockquote>${quote
            .split('\n')
            .map((line) => escapeHtml(line))
            .join('<br>')}</blockquote>`,
        ]
      : []),
    paragraph(`<a href="${escapeHtml(link)}">${escapeHtml(open)}</a>`),
    `<hr><p><small>${escapeHtml(footer)} <a href="${escapeHtml(settingsLink)}">${escapeHtml(settingsLink)}</a></small></p>`,
    '</body></html>',
    '',
  ].join('\n');
  return { recipient: to, subject: oneLine(subject), text, html };
}

/**
 * One message about a request to one person, as plain text and HTML. User input (titles, names,
 * comments) goes into the HTML escaped; a comment is reduced to its text first, since a mail
 * reader is no place for the page's rich text.
 */
export function requestMail(
  to: string,
  locale: string | null | undefined,
  message: RequestMessage,
): OutgoingMail {
  const clean: RequestMessage = {
    ...message,
    title: oneLine(message.title),
    community: oneLine(message.community),
    ...(message.actor === undefined ? {} : { actor: oneLine(message.actor) }),
  };
  const words = WORDINGS[mailLanguage(locale)];
  return composeMail(to, locale, {
    ...words.events[clean.event](clean),
    quote: clean.comment ? htmlToText(clean.comment) : '',
    link: clean.link,
    open: words.open,
    footer: words.footer(clean),
    settingsLink: clean.settingsLink,
  });
}

/** What a message about a grant says; `actor`, `title` and `message` are user input. */
export interface GrantMessage {
  permission: GrantPermission;
  title: string;
  /** Who gave the grant (their display name). */
  actor: string;
  /** The words the sharer added, as text. */
  message?: string;
  /** The record's landing page, or its draft's editor for an edit or manage grant. */
  link: string;
  siteName: string;
  settingsLink: string;
}

const GRANT_WORDINGS: Record<
  keyof typeof WORDINGS,
  {
    subject: (m: GrantMessage) => string;
    lead: (m: GrantMessage) => string;
    open: string;
    footer: (m: GrantMessage) => string;
  }
> = {
  en: {
    subject: (m) => `${m.actor} shared “${m.title}” with you`,
    lead: (m) =>
      `${m.actor} gave you access to “${m.title}” on ${m.siteName}: ${
        {
          view: 'you may read the record and its files',
          preview: 'you may read the record, its files and its draft',
          edit: 'you may read and edit its draft',
          manage: 'you may read, edit, publish and share it',
        }[m.permission]
      }.`,
    open: 'Open the record',
    footer: (m) =>
      `You receive this e-mail because someone shared a record with you on ${m.siteName}. You can turn e-mail notifications off on your account page:`,
  },
  de: {
    subject: (m) => `${m.actor} hat „${m.title}“ mit Ihnen geteilt`,
    lead: (m) =>
      `${m.actor} hat Ihnen auf ${m.siteName} Zugriff auf „${m.title}“ gegeben: ${
        {
          view: 'Sie können den Datensatz und seine Dateien lesen',
          preview: 'Sie können den Datensatz, seine Dateien und seinen Entwurf lesen',
          edit: 'Sie können seinen Entwurf lesen und bearbeiten',
          manage: 'Sie können ihn lesen, bearbeiten, veröffentlichen und teilen',
        }[m.permission]
      }.`,
    open: 'Zum Datensatz',
    footer: (m) =>
      `Sie erhalten diese E-Mail, weil jemand auf ${m.siteName} einen Datensatz mit Ihnen geteilt hat. E-Mail-Benachrichtigungen schalten Sie auf Ihrer Kontoseite ab:`,
  },
};

/** One message to a new grantee, in their language, with the sharer's words quoted. */
export function grantMail(
  to: string,
  locale: string | null | undefined,
  message: GrantMessage,
): OutgoingMail {
  const clean = { ...message, title: oneLine(message.title), actor: oneLine(message.actor) };
  const words = GRANT_WORDINGS[mailLanguage(locale)];
  return composeMail(to, locale, {
    subject: words.subject(clean),
    lead: words.lead(clean),
    quote: (clean.message ?? '').trim(),
    link: clean.link,
    open: words.open,
    footer: words.footer(clean),
    settingsLink: clean.settingsLink,
  });
}
