import { startAppServer } from './src-main/server/app-server.ts';
import { buildRendererInTemp, launchChromium } from './tests/e2e/browser.ts';
const SAMPLE = '31552264665432613134314646226624645162511461153216';
const outDir = process.env.OUT_DIR || (await buildRendererInTemp('saikoro-shot-'));
console.log('renderer', outDir);
const server = await startAppServer({ port: 0, rendererDir: outDir, build: 'never', parallelism: 1 });
const browser = await launchChromium();
for (const scheme of ['dark', 'light'] as const) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, colorScheme: scheme });
  await page.goto(`${server.url}#/dice`);
  await page.getByTestId('sequence-input').fill(SAMPLE);
  await page.waitForTimeout(1500);
  await page.getByTestId('transition-heatmap').screenshot({ path: `/tmp/shots/heat-${scheme}.png` });
  await page.close();
}
await browser.close();
await server.close();
