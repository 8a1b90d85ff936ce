/**
 * Who turns which mail off: a person the optional kinds for their address (one click on a mail's
 * List-Unsubscribe link, no sign-in: RFC 8058; or on /account), a business which of its
 * notifications go (get_notification_settings / update_notification_settings, owners and managers).
 * Mails that must go (a cancellation, a refund, a decline, a move) have no switch.
 */
import {
  accountEmail,
  businessNoticeSettings,
  findUnsubscribeLink,
  isOnAnyStaff,
  noticeOptOuts,
  type Queryable,
  type Sql,
  setBusinessNoticeSettings,
  setNoticeOptOut,
  transaction,
} from '@nogpets/store';
import { z } from 'zod';
import {
  auditChange,
  type Clock,
  defineOperation,
  hashSecret,
  READ_ONLY,
  ServiceError,
} from '../core/index.js';
import { inBusiness, RUN_ACCESS_ERRORS, RunBusinessIdShape } from '../staff/index.js';
import { businessKinds, NOTICE_KINDS, optionalKinds } from './table.js';

interface ChoiceDeps {
  sql: Sql;
  clock: Clock;
}

/** The token of a link as mailed: 32 base64url characters; anything else is no link. */
const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

/** What an unsubscribe link stands for, without using it (the page's button), or null. */
export async function unsubscribeLinkOf(
  deps: ChoiceDeps,
  token: string,
): Promise<{ email: string; kind: string; label: string; off: boolean } | null> {
  if (!TOKEN.test(token)) return null;
  const link = await findUnsubscribeLink(deps.sql, hashSecret(token));
  const kind = link && NOTICE_KINDS[link.kind];
  if (!link || !kind) return null;
  const off = (await noticeOptOuts(deps.sql, [link.email])).some((o) => o.kind === link.kind);
  return { email: link.email, kind: link.kind, label: kind.label, off };
}

/** One click: the link's kind of optional mail goes no more to its address. Null for no such link. */
export async function unsubscribeByLink(
  deps: ChoiceDeps,
  token: string,
): Promise<{ email: string; kind: string; label: string } | null> {
  if (!TOKEN.test(token)) return null;
  return transaction(deps.sql, async (q) => {
    const link = await findUnsubscribeLink(q, hashSecret(token));
    const kind = link && NOTICE_KINDS[link.kind];
    if (!link || !kind?.optional) return null;
    await setNoticeOptOut(q, link.email, link.kind, true, 'link', deps.clock.now());
    return { email: link.email, kind: link.kind, label: kind.label };
  });
}

export interface NoticeChoice {
  kind: string;
  label: string;
  audience: string;
  on: boolean;
}

async function choicesOf(q: Queryable, userId: string): Promise<{ email: string; choices: NoticeChoice[] }> {
  const email = await accountEmail(q, userId);
  if (!email) throw new ServiceError('NOT_FOUND', 'No such account.', {});
  const audiences: ('person' | 'business')[] = (await isOnAnyStaff(q, userId))
    ? ['person', 'business']
    : ['person'];
  const off = new Set((await noticeOptOuts(q, [email])).map((o) => o.kind));
  return { email, choices: optionalKinds(audiences).map((k) => ({ ...k, on: !off.has(k.kind) })) };
}

/** The optional mails of a person's address, each on or off (their /account page). */
export async function personNoticeChoices(
  deps: ChoiceDeps,
  userId: string,
): Promise<{ email: string; choices: NoticeChoice[] }> {
  return choicesOf(deps.sql, userId);
}

/** Sets the person's optional mails: kinds not named keep their state; a kind that must go is refused. */
export async function setPersonNoticeChoices(
  deps: ChoiceDeps,
  userId: string,
  on: Record<string, boolean>,
): Promise<{ email: string; choices: NoticeChoice[] }> {
  return transaction(deps.sql, async (q) => {
    const { email, choices } = await choicesOf(q, userId);
    const known = new Set(choices.map((c) => c.kind));
    for (const [kind, value] of Object.entries(on)) {
      if (!known.has(kind))
        throw new ServiceError('BAD_REQUEST', `${kind} is not a mail you can turn off.`, {
          fields: [{ field: kind, message: 'Not an optional mail.' }],
        });
      await setNoticeOptOut(q, email, kind, !value, 'account', deps.clock.now());
    }
    return choicesOf(q, userId);
  });
}

const SettingSchema = z.object({
  kind: z.string().meta({
    description:
      'The notification (business_new_booking, business_booking_cancelled, business_booking_moved).',
  }),
  label: z.string().meta({ description: 'The notification in words.' }),
  enabled: z.boolean(),
});

const SettingsOutput = z
  .object({
    businessId: z.string(),
    settings: z.array(SettingSchema),
    message: z.string(),
  })
  .meta({
    id: 'NotificationSettings',
    description: "Which of the business's notification mails go to its staff.",
  });

async function settingsOf(q: Queryable, businessId: string) {
  const rows = await businessNoticeSettings(q, [businessId]);
  const set = new Map(rows.map((r) => [r.kind, r.enabled]));
  return businessKinds().map((k) => ({ ...k, enabled: set.get(k.kind) ?? true }));
}

const words = (s: { label: string; enabled: boolean }[]) =>
  s.map((x) => `${x.label}: ${x.enabled ? 'on' : 'off'}`).join('; ');

export const getNotificationSettings = defineOperation({
  operationId: 'getNotificationSettings',
  toolName: 'get_notification_settings',
  title: 'Get the notification settings',
  tag: 'Run',
  mcp: 'none',
  method: 'GET',
  path: '/v1/business/notification-settings',
  inputIn: 'query',
  auth: { scope: 'business:manage' },
  description:
    'Which notification mails the business sends its staff: a new booking, a cancellation by a client, a move by a ' +
    'client (each to the owners and managers and to the crew of the booking’s van, walker or sitter). All are on ' +
    'until turned off with update_notification_settings. Mails to clients about what the business did (a move, a ' +
    'cancellation, a refund) always go. Owners and managers.',
  input: z.object({ ...RunBusinessIdShape }).strict(),
  output: SettingsOutput,
  successStatus: 200,
  errors: RUN_ACCESS_ERRORS,
  annotations: READ_ONLY,
  async handler(ctx, input) {
    return inBusiness(ctx, input.businessId, 'read', async ({ q, access }) => {
      const settings = await settingsOf(q, access.business.id);
      return {
        businessId: access.business.id,
        settings,
        message: `${access.business.name}: ${words(settings)}.`,
      };
    });
  },
});

export const updateNotificationSettings = defineOperation({
  operationId: 'updateNotificationSettings',
  toolName: 'update_notification_settings',
  title: 'Update the notification settings',
  tag: 'Run',
  mcp: 'none',
  method: 'POST',
  path: '/v1/business/notification-settings',
  inputIn: 'body',
  auth: { scope: 'business:manage' },
  description:
    'Turns notification mails to the business’s staff on or off: `settings` maps a notification (kinds as ' +
    'get_notification_settings lists them) to true or false; notifications not named keep their state. Each staff ' +
    'member may also stop a kind for themselves with the link in its mails. Owners and managers.',
  input: z
    .object({
      ...RunBusinessIdShape,
      settings: z
        .record(z.string().max(64), z.boolean())
        .refine(
          (s) => Object.keys(s).length >= 1 && Object.keys(s).length <= 20,
          'Name 1 to 20 notifications.',
        )
        .meta({ description: 'Notification kind → on (true) or off (false).' }),
    })
    .strict()
    .meta({ example: { settings: { business_new_booking: false } } }),
  output: SettingsOutput,
  successStatus: 200,
  errors: RUN_ACCESS_ERRORS,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  events: [],
  async handler(ctx, input) {
    const known = new Set(businessKinds().map((k) => k.kind));
    const unknown = Object.keys(input.settings).filter((k) => !known.has(k));
    if (unknown.length)
      throw new ServiceError(
        'BAD_REQUEST',
        `Not a notification: ${unknown.join(', ')}. Known: ${[...known].join(', ')}.`,
        {
          fields: unknown.map((k) => ({
            field: `settings.${k}`,
            message: 'Not a notification of a business.',
          })),
        },
      );
    return inBusiness(ctx, input.businessId, 'change', async ({ q, access }) => {
      const changes = Object.entries(input.settings).map(([kind, enabled]) => ({ kind, enabled }));
      await setBusinessNoticeSettings(q, access.business.id, changes, ctx.deps.clock.now());
      await auditChange(ctx, q, 'business.notification_settings', access.business.id, {
        settings: input.settings,
      });
      const settings = await settingsOf(q, access.business.id);
      return {
        businessId: access.business.id,
        settings,
        message: `${access.business.name}: ${words(settings)}.`,
      };
    });
  },
});
