// `npm start`: install if needed, build the client and the server if out of date, then migrate,
// seed and serve. The server runs compiled (dist/node/main.js) with plain node: no TypeScript at run time.
import { spawn } from 'node:child_process';
import { ensureDependencies } from './ensure-deps.mjs';
import { ensureClientBuild } from './ensure-build.mjs';
import { SERVER_OUT, ensureServerBuild, serverEnv, serverNodeArgs } from './build-server.mjs';

ensureDependencies();
ensureClientBuild();
await ensureServerBuild();

const child = spawn(process.execPath, [...serverNodeArgs(), SERVER_OUT], { stdio: 'inherit', env: serverEnv() });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(signal ? 0 : (code ?? 0)));
