// Calendar feeds (issue 30): the feed at /feeds/<secret>.ics for whoever holds its address (a
// calendar app polling it), and the account page's section that makes or replaces a feed's address.
// Both run the pages' internal operations: the feed as a visitor, the section as the person.
import { createHash } from 'node:crypto';
import {
  FEED_CANCELLED_DAYS,
  FEED_DAYS_AHEAD,
  FEED_DAYS_BACK,
  FEED_PATH,
  momentText,
  type OwnCalendarFeed,
  pageOperations,
  ServiceError,
  type UserRow,
} from '@nogpets/operations';
import type { Runtime } from '@nogpets/runtime';
import express, { type Request, type Response, type Router } from 'express';
import html from 'html-template-tag';
import { personCall, run, visitorCall } from './calls.js';

/** What the section shows once after its form: the new address, or why there is none. */
export type FeedShown = { label: string; url: string } | { error: string };

/** The feed's file: the secret and `.ics`; any other shape is answered 404 without a lookup. */
const FEED_FILE = /^\/(ncf_[A-Za-z0-9_-]{43})\.ics$/;

/** The one answer for any address that is not a live feed: plain, the same for every reason. */
function notFound(res: Response): void {
  res.status(404).type('text/plain').setHeader('Cache-Control', 'no-store').send('Not found\n');
}

/**
 * GET (and HEAD) `/feeds/<secret>.ics`. Public: the secret is the only credential. Spends the
 * service's request limit per address like every public route; an unknown, replaced or revoked
 * secret is a plain 404, the same as a malformed one.
 */
export function calendarFeedsRouter(runtime: Runtime): Router {
  const router = express.Router();
  router.use(FEED_PATH, (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    runtime.rateLimiter.middleware(req, res, async (err?: unknown) => {
      if (err instanceof ServiceError) {
        res.status(err.status).type('text/plain').send(`${err.message}\n`);
        return;
      }
      if (err) {
        next(err);
        return;
      }
      try {
        // req.path is as sent (not decoded): a %00, a long or a non-ASCII path never matches.
        const token = FEED_FILE.exec(req.path)?.[1];
        const feed = token
          ? await run(pageOperations.calendarFeed, visitorCall(runtime, req), { token })
          : null;
        if (!feed) {
          notFound(res);
          return;
        }
        // The text changes only when a booking does (DTSTAMP is its last change): calendars that
        // poll with If-None-Match get a 304 (the service turns Express's own ETags off).
        const etag = `"${createHash('sha256').update(feed.ics).digest('base64url').slice(0, 32)}"`;
        res.setHeader('ETag', etag);
        if (req.get('if-none-match') === etag) {
          res.status(304).setHeader('Cache-Control', 'private, max-age=300').end();
          return;
        }
        res
          .status(200)
          .setHeader('Content-Type', 'text/calendar; charset=utf-8')
          // Calendars poll; the person's own data is never kept by a shared cache.
          .setHeader('Cache-Control', 'private, max-age=300')
          .setHeader('Content-Disposition', 'inline; filename="nogpets.ics"')
          .setHeader('X-Robots-Tag', 'noindex, nofollow')
          .send(feed.ics);
      } catch (e) {
        next(e);
      }
    });
  });
  return router;
}

const when = (d: Date | null, timeZone: string) => (d ? momentText(d, timeZone) : 'never');

/** The account page's section: each feed the person may have, with a button to make or replace its address. */
export function feedsSection(
  feeds: OwnCalendarFeed[],
  csrf: string,
  timeZone: string,
  shown?: FeedShown,
): string {
  const rows = feeds
    .map(
      (f) => html`<tr>
        <td>${f.label}</td>
        <td data-label="Made">${f.feed ? when(f.feed.rotatedAt ?? f.feed.createdAt, timeZone) : 'Not made yet'}</td>
        <td data-label="Last read by a calendar">${f.feed ? when(f.feed.lastReadAt, timeZone) : ''}</td>
        <td><form method="post" action="/account/calendar-feeds">
          <input type="hidden" name="csrf" value="${csrf}">
          <input type="hidden" name="scope" value="${f.scope}">
          <input type="hidden" name="businessId" value="${f.businessId ?? ''}">
          <button class="${f.feed ? 'secondary' : ''}" type="submit">${f.feed ? 'Get a new address' : 'Make the address'}</button>
        </form></td></tr>`,
    )
    .join('');
  const notice = !shown
    ? ''
    : 'error' in shown
      ? html`<p class="error" role="alert">${shown.error}</p>`
      : html`<p class="notice" role="status">The address of the calendar feed of ${shown.label.charAt(0).toLowerCase() + shown.label.slice(1)}, shown this once. Add it to your calendar app as a subscription (Google Calendar: Other calendars, From URL; Apple Calendar: File, New Calendar Subscription). Anyone holding it sees the feed; any earlier address no longer works.</p>
        <p class="secret" id="new-feed-url">${shown.url}</p>`;
  return html`<h2 id="calendar">Calendar feeds</h2>
    $${notice}
    <p>Private addresses for your calendar app (.ics). NogPets keeps only a fingerprint of each address, so it is shown once, when made; a new one replaces it. A feed covers ${String(FEED_DAYS_BACK)} days back to ${String(FEED_DAYS_AHEAD)} days ahead, and keeps cancelled bookings ${String(FEED_CANCELLED_DAYS)} days, marked cancelled.</p>
    <table id="calendar-feeds"><tr><th>Feed</th><th>Address made</th><th>Last read by a calendar</th><th></th></tr>$${rows}</table>`;
}

type Session = { user: UserRow; csrf: string };

export interface FeedRouteDeps {
  runtime: Runtime;
  requireSession(req: Request, res: Response): Promise<Session | null>;
  /** Answers the account page with the section's outcome. */
  showAccount(res: Response, s: Session, shown: FeedShown, status?: number): Promise<void>;
}

/** The section's form: make or replace the address of one of the person's feeds. */
export function feedRoutes(router: Router, { runtime, requireSession, showAccount }: FeedRouteDeps): void {
  router.post('/account/calendar-feeds', async (req, res, next) => {
    try {
      const s = await requireSession(req, res);
      if (!s) return;
      const scope = String(req.body?.scope ?? '');
      const businessId = String(req.body?.businessId ?? '') || null;
      const ctx = personCall(runtime, req, s.user.id);
      try {
        const feeds = await run(pageOperations.ownCalendarFeeds, ctx, {});
        const chosen = feeds.find((f) => f.scope === scope && f.businessId === businessId);
        const made = await run(pageOperations.rotateOwnCalendarFeed, ctx, {
          scope: scope as OwnCalendarFeed['scope'],
          businessId,
        });
        await showAccount(res, s, { label: chosen?.label ?? 'Your bookings', url: made.url! });
      } catch (err) {
        if (!(err instanceof ServiceError) || err.status >= 500) throw err;
        await showAccount(res, s, { error: err.message }, err.status);
      }
    } catch (err) {
      next(err);
    }
  });
}
