import { ref } from 'vue';

/** The worker counts a view offers for a session (besides "one per core"). */
export const JOB_CHOICES = [1, 2, 3, 4, 6, 8, 12, 16];

/**
 * A user's action on the API: `busy` while it runs, and its failure as `actionError`
 * ("what: why"), cleared by the next action that succeeds. The monitor's and the
 * competition's Run and Cancel share it.
 */
export function useAction() {
  const actionError = ref<string | null>(null);
  const busy = ref(false);
  async function act(what: string, fn: () => Promise<unknown>): Promise<void> {
    busy.value = true;
    try {
      await fn();
      actionError.value = null;
    } catch (e) {
      actionError.value = `${what}: ${(e as Error).message}`;
    } finally {
      busy.value = false;
    }
  }
  return { actionError, busy, act };
}
