import { computed, onScopeDispose, readonly, ref, type ComputedRef, type Ref } from 'vue';
import { chartPalette, type ChartPalette, type ColorScheme } from '../../src-shared/charts/palette.ts';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * The scheme the page is drawn in: the app's choice when it sets `<html data-theme="light">` or
 * `"dark"` (styles/theme.css follows the same attribute), otherwise the system's preference.
 */
export function currentColorScheme(): ColorScheme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

/** The current colour scheme, kept up to date with the system setting and the data-theme attribute. */
export function useColorScheme(): Readonly<Ref<ColorScheme>> {
  const scheme = ref<ColorScheme>(currentColorScheme());
  const update = () => {
    scheme.value = currentColorScheme();
  };
  const media = typeof matchMedia === 'function' ? matchMedia(DARK_QUERY) : null;
  media?.addEventListener('change', update);
  const observer = new MutationObserver(update);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  onScopeDispose(() => {
    media?.removeEventListener('change', update);
    observer.disconnect();
  });
  return readonly(scheme);
}

/** The chart palette of the current colour scheme, for option builders that colour by meaning. */
export function useChartPalette(): ComputedRef<ChartPalette> {
  const scheme = useColorScheme();
  return computed(() => chartPalette(scheme.value));
}
