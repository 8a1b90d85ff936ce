/** The public entry of notices/: mail to people made from the domain events, and the choices of who gets which. */

export { BUSINESS_NOTICES, toStaff } from './business-rules.js';
export {
  getNotificationSettings,
  type NoticeChoice,
  personNoticeChoices,
  setPersonNoticeChoices,
  unsubscribeByLink,
  unsubscribeLinkOf,
  updateNotificationSettings,
} from './choices.js';
export { decideNotices, readEvent } from './decide.js';
export {
  dispatchAllNotices,
  dispatchNotices,
  NOTICES_READER,
  type NoticeDeps,
  renderContext,
  UNSUBSCRIBE_PATH,
} from './dispatch.js';
export { OWNER_NOTICES } from './owner-rules.js';
export { type RenderedMail, renderMail } from './render.js';
export { businessKinds, NOTICE_KINDS, optionalKinds, RULE_SETS, rulesOf } from './table.js';
export type {
  MailBlock,
  MailContent,
  Notice,
  NoticeEvent,
  NoticeFacts,
  NoticeKind,
  NoticeRule,
  NoticeRuleSet,
  RenderContext,
} from './types.js';
