// A worker's mail pass as its own process, for mail-kill.test.ts to kill with SIGKILL mid-delivery:
// the outbox pass (deliverPendingMail) with the service's nodemailer transport to SMTP_URL.
import { deliverPendingMail } from '@nogpets/operations/testing';
import { createSql } from '@nogpets/store';
import { createMailTransport } from '../../../packages/runtime/src/mail.js';

const sql = createSql(process.env.DATABASE_URL!, { max: 2 });
const mail = createMailTransport(process.env.SMTP_URL, 'NogPets <hello@nogpets.test>');
const now = new Date(process.env.NOW!);
const sent = await deliverPendingMail({ sql, clock: { now: () => now }, mail });
process.stdout.write(`${JSON.stringify({ sent })}\n`);
await sql.end();

const closing = mail as { close?: () => void } | null;
closing?.close?.();
