// One look for the whole app: the chart palette (src-shared/charts/palette.ts) and the CSS
// variables of styles/theme.css agree, light and dark; the ECharts theme takes every colour and
// font from the palette; and components take every colour from a variable.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHART_FONT, DARK_PALETTE, LIGHT_PALETTE, chartPalette, type ChartPalette } from '../../src-shared/charts/palette.ts';
import { chartTheme, themeName } from '../../src-renderer/charts/theme.ts';

const RENDERER = new URL('../../src-renderer/', import.meta.url).pathname;
const themeCss = readFileSync(join(RENDERER, 'styles/theme.css'), 'utf8');

/** The light and dark value of a CSS variable on :root (one value serves both). */
function cssVariable(name: string): { light: string; dark: string } {
  const m = new RegExp(`^\\s*--${name}:\\s*(.+);$`, 'm').exec(themeCss);
  if (!m) throw new Error(`--${name} is not in theme.css`);
  const pair = /^light-dark\((.+),\s*(.+)\)$/.exec(m[1]);
  return pair ? { light: pair[1], dark: pair[2] } : { light: m[1], dark: m[1] };
}

const MIRRORED: Record<string, keyof ChartPalette> = {
  surface: 'surface',
  text: 'text',
  'text-muted': 'muted',
  'text-faint': 'axis',
  border: 'grid',
  band: 'band',
  'band-edge': 'bandEdge',
  accent: 'accent',
  ok: 'ok',
  bad: 'bad',
  warn: 'warn',
  kick: 'kick',
};

describe('chart palette and CSS variables', () => {
  it.each(Object.entries(MIRRORED))("--%s is the palette's %s, light and dark", (variable, key) => {
    expect(cssVariable(variable)).toEqual({ light: LIGHT_PALETTE[key], dark: DARK_PALETTE[key] });
  });

  it('the dark values apply under prefers-color-scheme (light-dark) and data-theme="dark"; data-theme="light" keeps the light ones', () => {
    expect(themeCss).toMatch(/:root \{[^}]*color-scheme: light dark;/);
    expect(themeCss).toMatch(/:root\[data-theme='dark'\] \{\s*color-scheme: dark;\s*\}/);
    expect(themeCss).toMatch(/:root\[data-theme='light'\] \{\s*color-scheme: light;\s*\}/);
  });

  it('chartPalette picks by scheme', () => {
    expect(chartPalette('light')).toBe(LIGHT_PALETTE);
    expect(chartPalette('dark')).toBe(DARK_PALETTE);
    expect(themeName('dark')).toBe('saikoro-dark');
  });
});

describe('the ECharts theme', () => {
  it.each([LIGHT_PALETTE, DARK_PALETTE])('takes series colours, fonts, axes, legend and tooltip from the $name palette', (p) => {
    const t = chartTheme(p) as Record<string, any>;
    expect(t.color).toEqual(p.series);
    expect(t.textStyle).toEqual({ fontFamily: CHART_FONT, color: p.text });
    expect(t.tooltip).toMatchObject({ backgroundColor: p.surface, borderColor: p.grid, textStyle: { color: p.text, fontFamily: CHART_FONT } });
    expect(t.legend.textStyle.color).toBe(p.text);
    for (const axis of ['valueAxis', 'logAxis', 'categoryAxis']) {
      expect(t[axis].axisLine.lineStyle.color).toBe(p.axis);
      expect(t[axis].nameTextStyle.color).toBe(p.muted);
    }
    expect(t.valueAxis.axisLabel.color).toBe(p.muted);
    expect(t.valueAxis.splitLine.lineStyle.color).toBe(p.grid);
    expect(t.categoryAxis.axisLabel.color).toBe(p.text);
    expect(t.scatter.itemStyle.borderColor).toBe(p.surface);
  });

  it('keeps axis labels and names inside the grid and names beside their axis, clear of a legend on top', () => {
    const t = chartTheme(LIGHT_PALETTE) as Record<string, any>;
    expect(t.grid).toMatchObject({ outerBoundsMode: 'same', outerBoundsContain: 'all' });
    expect(t.valueAxis).toMatchObject({ nameLocation: 'middle', nameMoveOverlap: true });
    expect(t.legend.top).toBeLessThan(t.grid.top);
  });
});

describe('components', () => {
  function files(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
  }

  it('take every colour from a CSS variable (or, drawing on a canvas, from the chart palette)', () => {
    const literal = /#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(/;
    const offenders = files(RENDERER)
      .filter((f) => f.endsWith('.vue'))
      .flatMap((f) => {
        const style = /<style[^>]*>([\s\S]*?)<\/style>/.exec(readFileSync(f, 'utf8'))?.[1] ?? '';
        return style
          .split('\n')
          .filter((line) => literal.test(line))
          .map((line) => `${f.slice(RENDERER.length)}: ${line.trim()}`);
      });
    expect(offenders).toEqual([]);
  });

  it('chart option builders carry no colour of their own (the theme or the palette argument gives it)', () => {
    const literal = /#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(/;
    const offenders = files(join(RENDERER, 'views'))
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .filter((line) => literal.test(line))
          .map((line) => `${f.slice(RENDERER.length)}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });
});
