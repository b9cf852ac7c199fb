// `npm run build`: the server-rendering bundle, the browser bundle and its pre-compressed copies,
// and the compiled server (dist/node/main.js).
import { ensureClientBuild } from './ensure-build.mjs';
import { ensureServerBuild } from './build-server.mjs';

ensureClientBuild({ force: true });
await ensureServerBuild({ force: true });
