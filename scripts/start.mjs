// `npm start`: install if needed, build the client if out of date, then migrate, seed and serve.
import { spawn } from 'node:child_process';
import { ensureDependencies } from './ensure-deps.mjs';
import { ensureClientBuild } from './ensure-build.mjs';

ensureDependencies();
ensureClientBuild();

const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(signal ? 0 : (code ?? 0)));
