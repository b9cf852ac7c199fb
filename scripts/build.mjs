// `npm run build`: the server-rendering bundle, the browser bundle and its pre-compressed copies.
import { ensureClientBuild } from './ensure-build.mjs';

ensureClientBuild({ force: true });
