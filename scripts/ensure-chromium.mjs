// The browser journeys drive the system Chromium (never a downloaded one). On a fresh machine
// it is installed from Debian's packages, as .ci/run does.
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';

export function ensureChromium() {
  const wanted = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (fs.existsSync(wanted)) return true;
  if (process.env.CHROMIUM_PATH) {
    console.error(`CHROMIUM_PATH is ${wanted}, which does not exist.`);
    return false;
  }
  console.log('Installing Chromium (Debian package chromium)…');
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const run = (args) => {
    const [cmd, ...rest] = asRoot ? args : ['sudo', '-n', ...args];
    return spawnSync(cmd, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
  };
  const ok = run(['apt-get', 'update', '-qq']) && run(['apt-get', 'install', '-y', '-qq', 'chromium']);
  if (!ok || !fs.existsSync(wanted)) {
    console.error('Could not install Chromium: run `apt-get install chromium` as root, or set CHROMIUM_PATH.');
    return false;
  }
  return true;
}
