// `npm run dev`: the API server with file watching, and Vite's dev server with hot reload on :5173.
import { spawn } from 'node:child_process';
import { ensureDependencies } from './ensure-deps.mjs';

ensureDependencies();
const procs = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'src/server/main.ts'], { stdio: 'inherit' }),
  spawn('npx', ['vite'], { stdio: 'inherit' }),
];
const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
