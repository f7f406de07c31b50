import { readonly, ref, type Ref } from 'vue';
import { useWindowEvent } from './useWindowEvent.ts';

/**
 * What follows a view's id in the location hash: "mo3" for "#/experiment/mo3" (decoded), ''
 * for "#/experiment" or another view's hash.
 */
export function routeArgument(hash: string, viewId: string): string {
  const path = hash.replace(/^#\/?/, '').split('?')[0];
  const [id, ...rest] = path.split('/');
  if (id !== viewId || rest.length === 0) return '';
  try {
    return decodeURIComponent(rest.join('/'));
  } catch {
    return rest.join('/');
  }
}

/** The hash of a view with an argument: "#/monitor/mo3". */
export function routeHash(viewId: string, argument = ''): string {
  return argument ? `#/${viewId}/${encodeURIComponent(argument)}` : `#/${viewId}`;
}

/**
 * The argument of `viewId` in the location hash, kept up to date. A kept-alive view keeps the
 * last argument it was shown with while another view is shown.
 */
export function useRouteArgument(viewId: string): Readonly<Ref<string>> {
  const shownHere = () => window.location.hash.replace(/^#\/?/, '').split(/[/?]/)[0] === viewId;
  const argument = ref(routeArgument(window.location.hash, viewId));
  useWindowEvent('hashchange', () => {
    if (shownHere()) argument.value = routeArgument(window.location.hash, viewId);
  });
  return readonly(argument);
}
