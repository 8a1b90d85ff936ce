import { MAIL_BATCH, type MailTransport } from '@nogpets/operations';
import nodemailer from 'nodemailer';

/** The domain of the From address (Message-IDs are made on it), or a fixed one. */
function domainOf(from: string): string {
  const m = /@([A-Za-z0-9.-]+)/.exec(from);
  return m?.[1] ?? 'nogpets.invalid';
}

/** nodemailer reads options from the URL's query: the timeouts, unless the URL sets its own. */
function withTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  const timeouts = { connectionTimeout: '10000', greetingTimeout: '10000', socketTimeout: '30000' };
  for (const [name, ms] of Object.entries(timeouts))
    if (!url.searchParams.has(name)) url.searchParams.set(name, ms);
  return url.toString();
}

/**
 * Mail through the SMTP server of `SMTP_URL` (nodemailer: `smtp://user:pass@host:587`, or
 * `smtps://` for TLS from the start); null without one, and mail then waits in the outbox.
 */
export function createMailTransport(smtpUrl: string | undefined, from: string): MailTransport | null {
  if (!smtpUrl) return null;
  // Short timeouts: a mail is claimed for a lease of 2 minutes (MAIL_LEASE_MS) while it is sent;
  // nodemailer's defaults (2 minutes to connect, 10 of silence) would outlast it, and the mail would
  // be sent again by another pass. A pool of connections, as many as a pass sends at once, is kept
  // open between mails (the URL may say otherwise: `?pool=false`, `?maxConnections=2`).
  const transport = nodemailer.createTransport({
    url: withTimeouts(smtpUrl),
    pool: true,
    maxConnections: MAIL_BATCH,
  });
  const domain = domainOf(from);
  return {
    async send(message) {
      // The address as an object: nodemailer does not parse it for names or further recipients.
      await transport.sendMail({
        from,
        to: { name: '', address: message.to },
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(message.attachments?.length
          ? {
              attachments: message.attachments.map((a) => ({
                filename: a.filename,
                content: a.content,
                contentType: a.contentType,
              })),
            }
          : {}),
        ...(message.headers && Object.keys(message.headers).length ? { headers: message.headers } : {}),
        // The same on every attempt of a mail, so a mail sent twice (a crash after the server took
        // it) is known for one by the receiving side.
        ...(message.id ? { messageId: `<${message.id}@${domain}>` } : {}),
      });
    },
    close() {
      transport.close();
    },
  };
}
