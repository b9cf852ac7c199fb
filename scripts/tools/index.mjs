// The measuring tools, resolved from this folder's own node_modules (see scripts/ensure-tools.mjs).
export const tools = {
  lighthouse: () => import('lighthouse'),
  'chrome-launcher': () => import('chrome-launcher'),
  autocannon: () => import('autocannon'),
};
