/**
 * Mail to applicants and staff: an application received, approved (with how to run the business
 * from here), rejected (with the operator's note), all to the applicant's own account and all
 * mails that must go; and a business's owners and managers told that an invited person joined (a
 * business kind, chosen in its settings). The invitation itself is mailed by staff/ with its
 * accept and decline links, in the transaction that makes it.
 */
import { MCP_PATHS } from '../core/index.js';
import type { MailBlock, Notice, NoticeFacts, NoticeKind, NoticeRuleSet, RenderContext } from './types.js';
import { hello } from './words.js';

interface ApplicationData {
  applicationId: string;
  businessName: string;
  country: string;
  category: string[];
  note?: string | null;
  name: string;
}

function applicantKind(
  label: string,
  make: (d: ApplicationData, ctx: RenderContext) => { subject: string; heading: string; blocks: MailBlock[] },
): NoticeKind {
  return {
    audience: 'applicant',
    optional: false,
    label,
    template: (data, ctx) => {
      const d = data as unknown as ApplicationData;
      const parts = make(d, ctx);
      return { ...parts, blocks: [{ text: hello(d.name) }, ...parts.blocks] };
    },
  };
}

const noteBlock = (note: string | null | undefined): MailBlock[] =>
  note?.trim() ? [{ quote: note.trim(), by: 'NogPets' }] : [];

export const APPLICANT_KINDS = {
  application_submitted: applicantKind('Application received', (d, ctx) => ({
    subject: `We have your application for ${d.businessName}`,
    heading: 'Your application is with us',
    blocks: [
      {
        text: `Thank you: ${d.businessName} is waiting for review by NogPets. We tell you by mail when it is approved, or what is missing.`,
      },
      {
        rows: [
          ['Application', d.applicationId],
          ['Business', d.businessName],
          ['Country', d.country],
        ],
      },
      { link: { label: 'See its status', href: `${ctx.publicUrl}/account` } },
    ],
  })),
  application_approved: applicantKind('Application approved', (d, ctx) => ({
    subject: `Approved: ${d.businessName} is on NogPets`,
    heading: `${d.businessName} is approved`,
    blocks: [
      { text: `Welcome to NogPets. ${d.businessName} is live: clients can find and book it.` },
      ...noteBlock(d.note),
      {
        text: `Run it from your assistant: add NogPets for businesses (${ctx.publicUrl}${MCP_PATHS.business}) to it as an MCP server and sign in with this address. Ask it for your day plan, your bookings, your prices and hours, your staff and your earnings; changes are confirmed with you before they are made.`,
      },
      {
        text: 'Developers use the same operations over HTTPS with an API key from your account.',
      },
      { link: { label: 'Open your account', href: `${ctx.publicUrl}/account` } },
    ],
  })),
  application_rejected: applicantKind('Application not approved', (d, ctx) => ({
    subject: `Your application for ${d.businessName} was not approved`,
    heading: 'Your application was not approved',
    blocks: [
      { text: `NogPets could not approve ${d.businessName} as it stands.` },
      ...noteBlock(d.note),
      { text: 'You are welcome to apply again once the note above is taken care of.' },
      { link: { label: 'Open your account', href: `${ctx.publicUrl}/account` } },
    ],
  })),
  business_staff_joined: {
    audience: 'business',
    optional: true,
    label: 'Someone joined your staff',
    template: (data) => {
      const d = data as { name: string; businessName: string; role: string; member: string };
      return {
        subject: `${d.member || 'Someone'} joined ${d.businessName} as ${d.role}`,
        heading: 'Your staff grew',
        blocks: [
          { text: hello(d.name) },
          {
            text: `${d.member || 'The person you invited'} accepted your invitation and is on the staff of ${d.businessName} as ${d.role}.`,
          },
          { text: 'See your staff with list_staff in your assistant.' },
        ],
      };
    },
  },
} satisfies Record<string, NoticeKind>;

type ApplicantKind = keyof typeof APPLICANT_KINDS;

function toApplicant(facts: NoticeFacts, kind: ApplicantKind, data: Record<string, unknown>): Notice[] {
  const p = facts.person;
  if (!p?.email) return [];
  return [{ to: p.email, name: p.name, kind, optional: false, data: { ...data, name: p.name } }];
}

export const APPLICANT_NOTICES: NoticeRuleSet = {
  kinds: APPLICANT_KINDS,
  rules: {
    'application.submitted': [(e, f) => toApplicant(f, 'application_submitted', e.data)],
    'application.approved': [(e, f) => toApplicant(f, 'application_approved', e.data)],
    'application.rejected': [(e, f) => toApplicant(f, 'application_rejected', e.data)],
    // Owners and managers hear of a new member (not the member themselves, nor crew).
    'invitation.accepted': [
      (e, f) => {
        if (f.businessSettings.business_staff_joined === false) return [];
        const member = f.staff.find((m) => m.userId === e.data.userId);
        return f.staff
          .filter((m) => m.role !== 'crew' && m.userId !== e.data.userId)
          .map((m) => ({
            to: m.email,
            name: m.name,
            kind: 'business_staff_joined',
            optional: true,
            data: { ...e.data, name: m.name, member: member?.name || member?.email || '' },
          }));
      },
    ],
  },
};
