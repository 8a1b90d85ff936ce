/**
 * A mail's words as its two parts: one list of blocks made into a text part and an HTML part, every
 * value escaped with escape-html, links only when http(s), the subject on one line. Every mail to
 * people is laid out here: the notices made from events (notices/render.ts adds their footer and
 * .ics) and the mails an operation queues itself (a staff invitation), so they look and escape alike.
 */
import escapeHtml from 'escape-html';

/** One block of a mail's body; every string in it is text (escaped when made into HTML). */
export type MailBlock =
  | { text: string }
  | { rows: [label: string, value: string][] }
  | { quote: string; by: string }
  | { link: { label: string; href: string } };

/** What a mail says, before it becomes text and HTML. */
export interface MailLayout {
  subject: string;
  /** The first line, in large type in the HTML part. */
  heading: string;
  blocks: MailBlock[];
  /** Who speaks (the HTML part's banner): a business's name, or NogPets. */
  from: string;
  /** Why the person gets it and whether they can stop it: the text part's closing lines. */
  footer: string[];
  /** The footer as HTML when it holds a link (the unsubscribe link); otherwise `footer`, escaped. */
  footerHtml?: string;
}

/** One line, at most `max` characters: no header injection through a name in a subject. */
export function oneLine(s: string, max = 200): string {
  const flat = [...s]
    .map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? ' ' : c))
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A link's target as a mail may show it: http(s) only, anything else a dead '#'. */
export const safeHref = (href: string) => (/^https?:\/\//i.test(href) ? href : '#');

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

/** The mail's subject (one line), text part and HTML part. */
export function layoutMail(mail: MailLayout): { subject: string; text: string; html: string } {
  const text = [
    mail.heading,
    '',
    ...mail.blocks.map(blockText).flatMap((t) => [t, '']),
    '--',
    ...mail.footer,
    '',
  ].join('\n');
  const footer = mail.footerHtml ?? mail.footer.map((l) => escapeHtml(l)).join(' ');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(oneLine(mail.subject))}</title></head>
<body style="margin:0;padding:0;background:#f0f4f8;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" style="border-collapse:collapse"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" style="max-width:600px;border-collapse:collapse;background:#ffffff;border-radius:8px">
<tr><td style="padding:20px 28px;background:#2f6f4f;border-radius:8px 8px 0 0;color:#ffffff;font-size:14px;font-weight:600">${escapeHtml(mail.from)}</td></tr>
<tr><td style="padding:28px">
<h1 style="margin:0 0 20px;font-size:22px;color:#102a43">${escapeHtml(mail.heading)}</h1>
${mail.blocks.map(blockHtml).join('\n')}
</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid #d9e2ec;font-size:12px;line-height:1.5;color:#52606d">${footer}</td></tr>
</table></td></tr></table></body></html>
`;
  return { subject: oneLine(mail.subject, 250), text, html };
}
