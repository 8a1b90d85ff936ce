/** The public entry of feeds/: private calendar feeds of bookings and jobs, their operations and the feed itself. */
export { FEED_REFRESH_SECONDS, feedIcs, summaryOf, whatFor, whereOf } from './calendar.js';
export {
  CalendarFeedSchema,
  calendarFeedText,
  FEED_CANCELLED_DAYS,
  FEED_DAYS_AHEAD,
  FEED_DAYS_BACK,
  FEED_MAX_EVENTS,
  FEED_PATH,
  feedUrl,
  getBusinessCalendarFeed,
  getCalendarFeed,
  type OwnCalendarFeed,
  ownCalendarFeeds,
  rotateBusinessCalendarFeed,
  rotateCalendarFeed,
  rotateOwnCalendarFeed,
} from './feeds.js';
