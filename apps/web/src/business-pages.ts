// The pages a business applicant watches: their applications, and one with its checklist in words.
// They show what getSignupStatus answers, as the signed-in person.
import {
  getSignupStatus,
  MCP_PATHS,
  runOperation,
  SCOPES,
  ServiceError,
  stillNeeded,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { UserRow } from '@nogpets/operations';
import type { Request, Response, Router } from 'express';
import html from 'html-template-tag';
import { personCall } from './calls.js';
import { page } from './layout.js';

type Session = { user: UserRow; csrf: string };
type Status = Awaited<ReturnType<typeof getSignupStatus.handler>>;
type Application = NonNullable<Status['application']>;

const STATUS_WORDS: Record<Application['status'], string> = {
  DRAFT: 'Being filled in',
  SUBMITTED: 'Sent for review: the operator is looking at it',
  APPROVED: 'Approved',
  REJECTED: 'Not approved',
};

const ITEM_WORDS: Record<Application['checklist'][number]['status'], string> = {
  DONE: 'Done',
  MISSING: 'Missing',
  NEEDS_ATTENTION: 'Needs attention',
  OPTIONAL: 'Optional',
};

const CLAIM_WORDS: Record<NonNullable<Application['claim']>['status'], string> = {
  ASKED: 'the operator checks that it is your business before it becomes your listing.',
  GRANTED: 'granted: it is now your business’s listing.',
  NOT_GRANTED:
    'not granted: the operator did not confirm it is your business, so your business has a new listing of its own and the claimed one stays as it was.',
};

/**
 * What comes next, in the person's words: while a draft, the first thing the checklist still
 * misses (the assistant's `next` names the tools, which mean nothing here); after, where it stands.
 */
function nextWords(a: Application): string {
  if (a.status !== 'DRAFT') return html`${a.next}`;
  const [open] = stillNeeded(a.checklist);
  if (!open) return html`<strong>Next:</strong> nothing is missing, so it can be sent for review.`;
  return html`<strong>Next:</strong> ${open.title}: ${open.missing[0] ?? 'see below'}.`;
}

/** The status with the country, currency and time zone; and the directory claim when there is one. */
const statusLines = (a: Application) =>
  html`<p id="status"><strong>${STATUS_WORDS[a.status]}</strong>${a.country ? ` · ${a.country}` : ''}${a.currency ? ` · ${a.currency}` : ''}${a.timezone ? ` · ${a.timezone}` : ''}</p>
    $${a.claim ? html`<p id="claim">Directory listing claimed, <strong>${a.claim.name ?? a.claim.listingId}</strong>: ${CLAIM_WORDS[a.claim.status]}</p>` : ''}`;

/**
 * What an approved business does next, instead of the checklist and the assistant's sign-up steps:
 * run it from an assistant, connected over MCP or given a `business:manage` key.
 */
function approvedNext(mcpUrl: string): string {
  return html`<section id="next"><h2>What is next</h2>
    <p>Your business is on NogPets. You run it from an assistant: its services and prices, hours, staff, bookings and payouts.</p>
    <ul>
      <li><strong>Connect an assistant</strong>: add NogPets to it as an MCP server at <code class="url">${mcpUrl}</code>. It asks you to sign in here and allow it to run your business.</li>
      <li><strong>Or give it a key</strong>: on <a href="/account#api-keys">your account page</a>, create an API key that may “${SCOPES['business:manage']}” (<code>business:manage</code>), and give it to your assistant or program.</li>
    </ul>
    <p class="muted">Developers: the API is described at <a href="/docs">/docs</a>.</p>
  </section>
  <p><a href="/business/applications">All your applications</a></p>`;
}

function applicationBody(a: Application, mcpUrl: string): string {
  if (a.status === 'APPROVED')
    return html`$${statusLines(a)}
    $${approvedNext(mcpUrl)}`;
  return html`$${statusLines(a)}
    $${a.reviewNote ? html`<p class="error">${a.reviewNote}</p>` : ''}
    <p id="next">$${nextWords(a)}</p>
    <table id="checklist"><tr><th>Part</th><th>Status</th><th>What is missing</th></tr>
    $${a.checklist
      .map(
        (i) =>
          html`<tr><td><strong>${i.title}</strong></td><td data-label="Status">${ITEM_WORDS[i.status]}</td><td$${i.missing.length ? ' data-label="What is missing"' : ''}>$${
            i.missing.length
              ? html`<ul class="scopes">$${i.missing.map((m) => html`<li>${m}</li>`).join('')}</ul>`
              : ''
          }$${i.note ? html`<span class="muted">${i.note}</span>` : ''}</td></tr>`,
      )
      .join('')}</table>
    <p class="muted">Your assistant fills in what is missing with the business sign-up tools; this page shows where it stands.</p>
    <p><a href="/business/applications">All your applications</a></p>`;
}

export interface BusinessPagesDeps {
  runtime: Runtime;
  requireSession(req: Request, res: Response): Promise<Session | null>;
}

/** `/business/applications` and `/business/applications/:id`: the statusUrl and welcomeUrl of the sign-up answers. */
export function businessRoutes(router: Router, { runtime, requireSession }: BusinessPagesDeps): void {
  const status = async (req: Request, s: Session, applicationId?: string) =>
    runOperation(
      getSignupStatus,
      personCall(runtime, req, s.user.id, ['business:write']),
      applicationId === undefined ? {} : { applicationId },
    ) as Promise<Status>;

  router.get('/business/applications', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const { applications } = await status(req, s);
      res
        .type('html')
        .send(
          page(
            'Your business applications',
            applications.length
              ? html`<table id="applications"><tr><th>Business</th><th>Status</th></tr>$${applications
                  .map(
                    (a) =>
                      html`<tr><td><a href="/business/applications/${a.applicationId}">${a.name}</a></td><td data-label="Status">${STATUS_WORDS[a.status]}</td></tr>`,
                  )
                  .join('')}</table>`
              : html`<p>No application yet. Ask your assistant to start one for your business: it asks for the name, town and country, and this page then shows what is still missing.</p>`,
            s,
          ),
        );
    } catch (err) {
      next(err);
    }
  });

  router.get('/business/applications/:id', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      try {
        const { application } = await status(req, s, String(req.params.id));
        res
          .type('html')
          .send(
            page(
              application!.name,
              applicationBody(application!, `${runtime.publicUrl()}${MCP_PATHS.business}`),
              s,
            ),
          );
      } catch (err) {
        if (!(err instanceof ServiceError) || err.status >= 500) throw err;
        // Not theirs, none, or not an id at all: the same plain page.
        res
          .status(404)
          .type('html')
          .send(
            page(
              'Application not found',
              html`<p class="error">No application ${String(req.params.id)} of yours.</p><p><a href="/business/applications">Your applications</a></p>`,
              s,
            ),
          );
      }
    } catch (err) {
      next(err);
    }
  });
}
