import { escapeHtml } from '../../lib/html.js';
import { mailLanguage, oneLine } from './messages.js';
import type { OutgoingMail } from './outbox.repository.js';

/** What the e-mails to a guest who asked for access say; `title` and `name` are user input. */
export interface GuestAccessMessage {
  /** The record's title. */
  title: string;
  /** The guest's name as they gave it. */
  name: string;
  /** Where they go: the confirmation page, or the record with its link's token. */
  link: string;
  siteName: string;
  /** Until when the link works (`YYYY-MM-DD`), for an accepted request; null: no end. */
  expiresAt?: string | null;
  /** How long the confirmation link works, in hours. */
  hours?: number;
}

export type GuestAccessEvent = 'verify' | 'accepted' | 'declined';

interface GuestWording {
  subject: string;
  lead: string;
  /** The words of the link, when there is one. */
  open?: string;
  /** A sentence after the link. */
  after?: string;
}

type GuestWords = Record<GuestAccessEvent, (m: GuestAccessMessage) => GuestWording>;

const GUEST_WORDINGS: Record<'en' | 'de', GuestWords> = {
  en: {
    verify: (m) => ({
      subject: `Confirm your request for access to “${m.title}”`,
      lead: `Hello ${m.name}, please confirm your e-mail address to send your request for access to the files of “${m.title}” on ${m.siteName} to its owner.`,
      open: 'Confirm and send the request',
      after: `The link works for ${m.hours ?? 6} hours. If you did not ask for access, ignore this e-mail.`,
    }),
    accepted: (m) => ({
      subject: `Your request for access to “${m.title}” was accepted`,
      lead: `Hello ${m.name}, the owner of “${m.title}” on ${m.siteName} accepted your request. This link opens the record and its files; keep it to yourself.`,
      open: 'Open the record',
      after: m.expiresAt ? `The link works until ${m.expiresAt}.` : undefined,
    }),
    declined: (m) => ({
      subject: `Your request for access to “${m.title}” was declined`,
      lead: `Hello ${m.name}, the owner of “${m.title}” on ${m.siteName} declined your request for access.`,
    }),
  },
  de: {
    verify: (m) => ({
      subject: `Bestätigen Sie Ihre Zugangsanfrage für „${m.title}“`,
      lead: `Hallo ${m.name}, bitte bestätigen Sie Ihre E-Mail-Adresse, damit Ihre Anfrage nach Zugang zu den Dateien von „${m.title}“ auf ${m.siteName} an die Eigentümerin oder den Eigentümer geht.`,
      open: 'Bestätigen und Anfrage senden',
      after: `Der Link gilt ${m.hours ?? 6} Stunden. Wenn Sie keinen Zugang angefragt haben, ignorieren Sie diese E-Mail.`,
    }),
    accepted: (m) => ({
      subject: `Ihre Zugangsanfrage für „${m.title}“ wurde angenommen`,
      lead: `Hallo ${m.name}, Ihre Anfrage für „${m.title}“ auf ${m.siteName} wurde angenommen. Dieser Link öffnet den Datensatz und seine Dateien; geben Sie ihn nicht weiter.`,
      open: 'Datensatz öffnen',
      after: m.expiresAt ? `Der Link gilt bis ${m.expiresAt}.` : undefined,
    }),
    declined: (m) => ({
      subject: `Ihre Zugangsanfrage für „${m.title}“ wurde abgelehnt`,
      lead: `Hallo ${m.name}, Ihre Anfrage nach Zugang zu „${m.title}“ auf ${m.siteName} wurde abgelehnt.`,
    }),
  },
};

/**
 * One message to a guest about their access request, in their language, as plain text and HTML
 * (what they typed escaped). A guest has no account, so there is no page of settings to point to.
 */
export function guestAccessMail(
  to: string,
  locale: string | null | undefined,
  event: GuestAccessEvent,
  message: GuestAccessMessage,
): OutgoingMail {
  const language = mailLanguage(locale);
  const clean = { ...message, title: oneLine(message.title), name: oneLine(message.name) };
  const { subject, lead, open, after } = GUEST_WORDINGS[language][event](clean);
  const text = [
    lead,
    '',
    ...(open ? [`${open}: ${clean.link}`, ''] : []),
    ...(after ? [after, ''] : []),
    '-- ',
    clean.siteName,
    '',
  ].join('\n');
  const html = [
    '<!DOCTYPE html>',
    `<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>`,
    `<p>${escapeHtml(lead)}</p>`,
    ...(open ? [`<p><a href="${escapeHtml(clean.link)}">${escapeHtml(open)}</a></p>`] : []),
    ...(after ? [`<p>${escapeHtml(after)}</p>`] : []),
    `<hr><p><small>${escapeHtml(clean.siteName)}</small></p>`,
    '</body></html>',
    '',
  ].join('\n');
  return { recipient: to, subject: oneLine(subject), text, html };
}
