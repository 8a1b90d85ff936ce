export { page, STYLESHEET } from './layout.js';
export { type PagesOptions, pagesRouter, safeNext } from './pages.js';
export { ACCESS_TOKEN_SECONDS, createOAuthProvider, oauthRouter, REFRESH_TOKEN_DAYS } from './oauth.js';
