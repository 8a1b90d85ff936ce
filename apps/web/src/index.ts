export { page, STYLESHEET } from './layout.js';
export { type PagesOptions, pagesRouter, safeNext } from './pages.js';
