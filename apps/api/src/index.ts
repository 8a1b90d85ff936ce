export { type MountApiOptions, mountApi } from './app.js';
export { API_VERSION, createOpenApiDocument } from './openapi.js';
export { httpContext } from './routes.js';
