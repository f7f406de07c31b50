/** Debian's Chromium, which the browser tests drive through playwright-core (see tools.ts for the policy). */
import { requireTool } from './tools.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** Chromium for a browser test: `skip` outside CI when missing; `check()` fails under CI when missing. */
export const requireChromium = () => requireTool('Chromium', CHROMIUM_PATH, 'apt-get install chromium');
