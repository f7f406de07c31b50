/**
 * Virtual scrolling for long tables: only the rows in view (plus a margin) are rendered, the
 * rest is padding of the right height, so a front of 100,000 members scrolls like one of ten.
 * Rows have a fixed height. Owns its scroll listener and ResizeObserver.
 */
import { computed, onScopeDispose, readonly, ref, watch, type Ref } from 'vue';

export function useVirtualRows(container: Ref<HTMLElement | null>, count: Ref<number>, rowHeight: number, overscan = 8) {
  const scrollTop = ref(0);
  const viewport = ref(400);
  let observer: ResizeObserver | null = null;
  const onScroll = () => {
    if (container.value) scrollTop.value = container.value.scrollTop;
  };
  watch(
    container,
    (el, old) => {
      old?.removeEventListener('scroll', onScroll);
      observer?.disconnect();
      if (!el) return;
      el.addEventListener('scroll', onScroll, { passive: true });
      // The height comes from the ResizeObserver, which reports it once laid out (the first time
      // before that frame is painted): reading clientHeight here would lay the page out at once,
      // a second layout in the frame that shows a new table.
      if (typeof ResizeObserver !== 'undefined') {
        observer = new ResizeObserver(() => (viewport.value = el.clientHeight || viewport.value));
        observer.observe(el);
      } else viewport.value = el.clientHeight || viewport.value;
    },
    { immediate: true },
  );
  onScopeDispose(() => {
    container.value?.removeEventListener('scroll', onScroll);
    observer?.disconnect();
  });
  const start = computed(() => Math.max(0, Math.floor(scrollTop.value / rowHeight) - overscan));
  const end = computed(() => Math.min(count.value, Math.ceil((scrollTop.value + viewport.value) / rowHeight) + overscan));
  const padTop = computed(() => start.value * rowHeight);
  const padBottom = computed(() => Math.max(0, (count.value - end.value) * rowHeight));
  /** Scrolls so that row i is in view. */
  function reveal(i: number): void {
    const el = container.value;
    if (!el) return;
    const top = i * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
    onScroll();
  }
  return { start: readonly(start), end: readonly(end), padTop: readonly(padTop), padBottom: readonly(padBottom), reveal };
}
