// A business's notifications as a page (issue 30: "a business can choose which"): for each business
// the signed-in person is an owner or manager of, the notification mails to its staff with a switch
// each. The page reads and saves them through the Run operations an assistant calls
// (get_notification_settings, update_notification_settings) as the person, so the page, the tools
// and the HTTP API agree by construction; a crew member or a stranger is offered no business.
import {
  getNotificationSettings,
  type OperationContext,
  pageOperations,
  runOperation,
  ServiceError,
  updateNotificationSettings,
  type UserRow,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import type { Request, Response, Router } from 'express';
import html from 'html-template-tag';
import { personCall, run } from './calls.js';
import { page } from './layout.js';

export const BUSINESS_NOTIFICATIONS_PATH = '/business/notifications';

type Session = { user: UserRow; csrf: string };

export interface BusinessNotificationPagesDeps {
  runtime: Runtime;
  requireSession(req: Request, res: Response): Promise<Session | null>;
}

type Settings = Awaited<ReturnType<typeof getNotificationSettings.handler>>;
type Managed = { businessId: string; name: string; role: string; settings: Settings | null; error?: string };

/** A form field as a list of strings (a field sent once is a string). */
const list = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];

function businessSection(b: Managed, csrf: string): string {
  const body = b.settings
    ? html`<form method="post" action="$${BUSINESS_NOTIFICATIONS_PATH}">
        <input type="hidden" name="csrf" value="${csrf}">
        <input type="hidden" name="businessId" value="${b.businessId}">
        <fieldset><legend>Mails ${b.name} sends its staff</legend>
        $${b.settings.settings
          .map(
            (x) =>
              html`<input type="hidden" name="kinds" value="${x.kind}"><label class="check"><input type="checkbox" name="on" value="${x.kind}"$${x.enabled ? ' checked' : ''}>${x.label}</label>`,
          )
          .join('')}
        </fieldset>
        <button type="submit">Save notifications of ${b.name}</button></form>`
    : html`<p class="error">${b.error ?? ''}</p>`;
  return html`<section id="business-${b.businessId}"><h2>${b.name}</h2>
    <p class="muted">Your role here: ${b.role}.</p>$${body}</section>`;
}

function notificationsPage(
  managed: Managed[],
  s: Session,
  shown: { saved?: string; error?: string } = {},
): string {
  const saved = shown.saved ? managed.find((b) => b.businessId === shown.saved) : undefined;
  return page(
    'Business notifications',
    html`$${shown.error ? html`<p class="error" role="alert">${shown.error}</p>` : ''}
    $${saved ? html`<p class="notice" role="status">Saved the notifications of ${saved.name}.</p>` : ''}
    $${
      managed.length
        ? html`<p>Which mails each business you run sends its staff: the owners and managers, and the crew of the booking’s van, walker or sitter. A mail that is off goes to nobody at that business. Mails to clients about what the business did (a confirmation, a move, a cancellation, a refund) always go. Each person may also stop a kind for themselves on <a href="/account#mail">their account</a>.</p>
          $${managed.map((b) => businessSection(b, s.csrf)).join('')}`
        : html`<p id="no-business">You are not an owner or manager of a business on NogPets, so there is no business whose notifications you can change. Your own mails are chosen on <a href="/account#mail">your account</a>.</p>`
    }`,
    s,
  );
}

export function businessNotificationRoutes(
  router: Router,
  { runtime, requireSession }: BusinessNotificationPagesDeps,
): void {
  /** The Run operations take the person's session with the scope an assistant's key would need. */
  const runCall = (req: Request, s: Session): OperationContext =>
    personCall(runtime, req, s.user.id, ['business:manage']);

  /** Each business the person runs, with its settings (or why they could not be read). */
  async function managedOf(req: Request, s: Session): Promise<Managed[]> {
    const businesses = await run(pageOperations.managedBusinesses, personCall(runtime, req, s.user.id), {});
    return Promise.all(
      businesses.map(async (b) => {
        try {
          const settings = (await runOperation(getNotificationSettings, runCall(req, s), {
            businessId: b.businessId,
          })) as Settings;
          return { ...b, settings };
        } catch (err) {
          if (!(err instanceof ServiceError) || err.status >= 500) throw err;
          return { ...b, settings: null, error: err.message };
        }
      }),
    );
  }

  router.get(BUSINESS_NOTIFICATIONS_PATH, async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const saved = typeof req.query.saved === 'string' ? req.query.saved : undefined;
      res.type('html').send(notificationsPage(await managedOf(req, s), s, { saved }));
    } catch (err) {
      next(err);
    }
  });

  router.post(BUSINESS_NOTIFICATIONS_PATH, async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const businessId = String(req.body?.businessId ?? '');
      const on = new Set(list(req.body?.on));
      const settings = Object.fromEntries(list(req.body?.kinds).map((k) => [k, on.has(k)]));
      try {
        await runOperation(updateNotificationSettings, runCall(req, s), { businessId, settings });
      } catch (err) {
        // The operation's refusal (not a business of theirs, crew, an unknown kind) as the page's message.
        if (!(err instanceof ServiceError) || err.status >= 500) throw err;
        res
          .status(err.status)
          .type('html')
          .send(notificationsPage(await managedOf(req, s), s, { error: err.message }));
        return;
      }
      res.redirect(
        303,
        `${BUSINESS_NOTIFICATIONS_PATH}?saved=${encodeURIComponent(businessId)}#business-${encodeURIComponent(businessId)}`,
      );
    } catch (err) {
      next(err);
    }
  });
}
