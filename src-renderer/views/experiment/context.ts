/**
 * What every field of the experiment form needs, given once by the view: the draft shown, the
 * errors by field, whether it is read-only (a stored experiment's spec), and how to write.
 * Fields register the path they show, so a section can list the errors no field of it shows
 * (a list-level rule such as "must have 15 entries", an unknown member from the JSON).
 */
import { inject, onScopeDispose, provide, shallowRef, watch, type InjectionKey, type Ref, type ShallowRef } from 'vue';
import { isInside, setAt, type Draft } from '../../logic/experiment/draft-paths.ts';

export interface EditorContext {
  draft: Readonly<Ref<Draft>>;
  errors: Readonly<Ref<ReadonlyMap<string, string>>>;
  readOnly: Readonly<Ref<boolean>>;
  /** Replaces the draft with an edited copy (the JSON follows). */
  update(next: Draft): void;
  /** Replaces the whole draft, undoably (removing an instance, resetting bands). */
  replace(next: Draft, label: string): void;
  /** Fields shown by an input, by path. */
  shown: ShallowRef<ReadonlySet<string>>;
}

const KEY: InjectionKey<EditorContext> = Symbol('experiment-editor');

export function provideEditor(context: EditorContext): void {
  provide(KEY, context);
}

export function useEditor(): EditorContext {
  const context = inject(KEY);
  if (!context) throw new Error('an experiment field outside the experiment editor');
  return context;
}

/** Writes one field of the draft. */
export function setField(context: EditorContext, field: string, value: unknown): void {
  if (!context.readOnly.value) context.update(setAt(context.draft.value, field, value));
}

/** Marks `field` as shown by an input for the lifetime of the calling scope (following it when it changes). */
export function showsField(context: EditorContext, field: () => string): void {
  let current: string | null = null;
  const move = (next: string | null) => {
    const set = new Set(context.shown.value);
    if (current !== null) set.delete(current);
    if (next !== null) set.add(next);
    current = next;
    context.shown.value = set;
  };
  watch(field, (next) => move(next), { immediate: true });
  onScopeDispose(() => move(null));
}

/** The errors inside `prefix` that no input shows: a section lists them itself. */
export function unshownErrors(context: EditorContext, prefix: string, except: readonly string[] = []): [string, string][] {
  return [...context.errors.value].filter(([f]) => isInside(f, prefix) && !context.shown.value.has(f) && !except.some((e) => isInside(f, e)));
}

export function newShownSet(): ShallowRef<ReadonlySet<string>> {
  return shallowRef<ReadonlySet<string>>(new Set());
}
