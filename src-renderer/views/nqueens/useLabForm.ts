/**
 * The lab's parameter panel: the preset, the form the user edits, whether they have edited it by
 * hand since the preset was last loaded, and the form checked into network parameters. A new
 * (valid) N reloads the preset's values for it unless the user has edited a parameter.
 */
import { computed, reactive, ref, shallowRef, watch } from 'vue';
import { slidesNeuralParams } from '../../../src-shared/problems/nqueens/neural.ts';
import { editedFields, MAX_LAB_N, paramsFromForm, presetForm, type LabForm, type PresetName } from './lab.ts';

export function useLabForm(initial: { n: number; seed: number } = { n: 8, seed: 1 }) {
  const preset = ref<PresetName>('default');
  const form = reactive<LabForm>(presetForm('default', initial.n, initial.seed));
  /** The preset's values as last loaded; parameters that differ from them are the user's own edits. */
  const applied = shallowRef<LabForm>(presetForm('default', initial.n, initial.seed));
  const edited = computed(() => editedFields(form, applied.value).length > 0);
  const nValid = computed(() => Number.isInteger(form.n) && form.n >= 4 && form.n <= MAX_LAB_N);
  /** What the slides suggest for the current N, shown whichever preset is active. */
  const suggestion = computed(() => (nValid.value ? slidesNeuralParams(form.n) : null));
  const checked = computed(() => paramsFromForm({ ...form }));
  const formError = computed(() => (checked.value.ok ? null : checked.value));

  function applyPreset(): void {
    const values = presetForm(preset.value, form.n, form.seed);
    applied.value = values;
    Object.assign(form, values);
  }

  watch(preset, applyPreset);
  watch(
    () => form.n,
    () => {
      if (nValid.value && !edited.value) applyPreset();
    },
  );

  return { preset, form, edited, nValid, suggestion, checked, formError, applyPreset };
}
