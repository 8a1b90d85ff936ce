import type { MailTransport } from '@nogpets/operations';
import nodemailer from 'nodemailer';

/**
 * Mail through the SMTP server of `SMTP_URL` (nodemailer: `smtp://user:pass@host:587`, or
 * `smtps://` for TLS from the start); null without one, and mail then waits in the outbox.
 */
export function createMailTransport(smtpUrl: string | undefined, from: string): MailTransport | null {
  if (!smtpUrl) return null;
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      // The address as an object: nodemailer does not parse it for names or further recipients.
      await transport.sendMail({
        from,
        to: { name: '', address: message.to },
        subject: message.subject,
        text: message.text,
      });
    },
  };
}
