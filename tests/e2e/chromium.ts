/** Debian's Chromium, which the browser tests drive through playwright-core (see tools.ts for the policy). */
import { CHROMIUM_ARGS as ARGS, SYSTEM_CHROMIUM } from '../../src-main/chromium.ts';
import { requireTool } from './tools.ts';

export const CHROMIUM_PATH = SYSTEM_CHROMIUM;
export const CHROMIUM_ARGS = [...ARGS];

/** Chromium for a browser test: `skip` outside CI when missing; `check()` fails under CI when missing. */
export const requireChromium = () => requireTool('Chromium', CHROMIUM_PATH, 'apt-get install chromium');
