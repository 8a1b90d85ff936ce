/**
 * A notice as a mail: the template's words made into a text part and an HTML part (every value
 * escaped with escape-html, links only http(s)), the .ics attached when the template gives one, and
 * on optional mail the unsubscribe link in the footer (and the List-Unsubscribe headers: dispatch.ts).
 */

import type { MailAttachment } from '@nogpets/store';
import escapeHtml from 'escape-html';
import { icsText } from './calendar.js';
import type { MailBlock, MailContent, NoticeKind, RenderContext } from './types.js';
import { businessName } from './words.js';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
}

/** One line, at most 200 characters: no header injection through a name in a subject. */
function oneLine(s: string, max = 200): string {
  const flat = [...s]
    .map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? ' ' : c))
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const safeHref = (href: string) => (/^https?:\/\//i.test(href) ? href : '#');

function blockText(b: MailBlock): string {
  if ('text' in b) return b.text;
  if ('rows' in b) return b.rows.map(([k, v]) => `${k}: ${v}`).join('\n');
  if ('quote' in b)
    return `${b.by} wrote:\n${b.quote
      .split('\n')
      .map((l) => `> ${l}`)
      .join('\n')}`;
  return `${b.link.label}: ${b.link.href}`;
}

const P = 'margin:0 0 16px;font-size:15px;line-height:1.5;color:#1f2933';

function blockHtml(b: MailBlock): string {
  if ('text' in b) return `<p style="${P}">${escapeHtml(b.text)}</p>`;
  if ('rows' in b)
    return `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px;font-size:15px">${b.rows
      .map(
        ([k, v]) =>
          `<tr><th align="left" style="padding:4px 16px 4px 0;color:#52606d;font-weight:600;vertical-align:top">${escapeHtml(k)}</th><td style="padding:4px 0;color:#1f2933">${escapeHtml(v)}</td></tr>`,
      )
      .join('')}</table>`;
  if ('quote' in b)
    return `<p style="${P};color:#52606d">${escapeHtml(b.by)} wrote:</p><blockquote style="margin:0 0 16px;padding:8px 16px;border-left:4px solid #9fb3c8;color:#1f2933;white-space:pre-wrap">${escapeHtml(b.quote)}</blockquote>`;
  return `<p style="${P}"><a href="${escapeHtml(safeHref(b.link.href))}" style="display:inline-block;padding:10px 18px;background:#2f6f4f;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(b.link.label)}</a></p>`;
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
  const text = [
    content.heading,
    '',
    ...content.blocks.map(blockText).flatMap((t) => [t, '']),
    '--',
    why,
    off,
    '',
  ].join('\n');
  const footer = unsubscribeUrl
    ? `${escapeHtml(why)} <a href="${escapeHtml(safeHref(unsubscribeUrl))}" style="color:#52606d">Stop mails like this (${escapeHtml(kind.label)})</a>.`
    : `${escapeHtml(why)} ${escapeHtml(off)}`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(oneLine(content.subject))}</title></head>
<body style="margin:0;padding:0;background:#f0f4f8;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" style="border-collapse:collapse"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" style="max-width:600px;border-collapse:collapse;background:#ffffff;border-radius:8px">
<tr><td style="padding:20px 28px;background:#2f6f4f;border-radius:8px 8px 0 0;color:#ffffff;font-size:14px;font-weight:600">${escapeHtml(from)}</td></tr>
<tr><td style="padding:28px">
<h1 style="margin:0 0 20px;font-size:22px;color:#102a43">${escapeHtml(content.heading)}</h1>
${content.blocks.map(blockHtml).join('\n')}
</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid #d9e2ec;font-size:12px;line-height:1.5;color:#52606d">${footer}</td></tr>
</table></td></tr></table></body></html>
`;
  const attachments: MailAttachment[] = content.calendar
    ? [
        {
          filename: 'booking.ics',
          contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
          content: icsText(content.calendar, ctx.occurredAt),
        },
      ]
    : [];
  return { subject: oneLine(content.subject, 250), text, html, attachments };
}
