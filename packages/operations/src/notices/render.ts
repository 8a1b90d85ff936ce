/**
 * A notice as a mail: the template's words laid out as a text part and an HTML part by core's
 * layoutMail (every value escaped with escape-html, links only http(s)), the .ics attached when the
 * template gives one, and on optional mail the unsubscribe link in the footer (and the
 * List-Unsubscribe headers: dispatch.ts).
 */

import type { MailAttachment } from '@nogpets/store';
import escapeHtml from 'escape-html';
import { icsText } from './calendar.js';
import { layoutMail, safeHref } from '../core/index.js';
import type { MailContent, NoticeKind, RenderContext } from './types.js';
import { businessName } from './words.js';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
}

export function renderMail(
  content: MailContent,
  kind: NoticeKind,
  ctx: RenderContext,
  unsubscribeUrl: string | null,
): RenderedMail {
  const from = businessName(ctx);
  const why =
    kind.audience === 'business' || kind.audience === 'staff'
      ? `You get this mail as staff of ${from} on NogPets.`
      : `You get this mail because of your booking or order with ${from} through NogPets.`;
  const off = unsubscribeUrl
    ? `To stop mails like this ("${kind.label}"), open ${unsubscribeUrl}`
    : 'This mail is about something that changed for you, so it is always sent.';
  const footerHtml = unsubscribeUrl
    ? `${escapeHtml(why)} <a href="${escapeHtml(safeHref(unsubscribeUrl))}" style="color:#52606d">Stop mails like this (${escapeHtml(kind.label)})</a>.`
    : undefined;
  const { subject, text, html } = layoutMail({ ...content, from, footer: [why, off], footerHtml });
  const attachments: MailAttachment[] = content.calendar
    ? [
        {
          filename: 'booking.ics',
          contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
          content: icsText(content.calendar, ctx.occurredAt),
        },
      ]
    : [];
  return { subject, text, html, attachments };
}
