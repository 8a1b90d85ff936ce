export { page, STYLESHEET } from './layout.js';
export { type PagesOptions, pagesRouter, SIGN_IN_TRIES, SIGN_IN_WINDOW_SEC, safeNext } from './pages.js';
export { ACCESS_TOKEN_SECONDS, createOAuthProvider, oauthRouter, REFRESH_TOKEN_DAYS } from './oauth.js';
export { paymentsRouter } from './pay.js';
