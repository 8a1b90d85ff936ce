export { page, STYLESHEET } from './layout.js';
export { type PagesOptions, pagesRouter, SIGN_IN_TRIES, SIGN_IN_WINDOW_SEC, safeNext } from './pages.js';
export { createOAuthProvider, oauthRouter } from './oauth.js';
export { paymentsRouter } from './pay.js';
export { calendarFeedsRouter } from './calendar-feeds.js';
