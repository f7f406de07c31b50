/**
 * The experiment editor's draft: one spec value that the form and the JSON text both edit,
 * checked as it changes with the main side's own checks (logic/experiment/check-draft.ts), saved
 * with the project store's addExperiment. It outlives the view, so a draft survives going to
 * another view and back; a refused save changes nothing in it, and every replacement of the
 * whole draft (new, clone, reset, remove) can be undone.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef, watch } from 'vue';
import type { ExperimentSpec, ExperimentSummary, SolverDescriptor } from '../../src-shared/api.ts';
import { useApi } from '../api/index.ts';
import { useProjectStore } from './project.ts';
import { checkDraft } from '../logic/experiment/check-draft.ts';
import { draftJson, parseDraftJson, type JsonProblem } from '../logic/experiment/draft-json.ts';
import type { Draft } from '../logic/experiment/draft-paths.ts';
import { cloneAsDraft, newDraft } from '../logic/experiment/new-draft.ts';

/** How many replaced drafts Undo keeps. */
const UNDO_DEPTH = 30;

export interface SaveOutcome {
  /** 'unchanged': the project already had this very spec. */
  kind: 'added' | 'unchanged';
  experiment: ExperimentSummary;
}

export interface SaveRefusal {
  message: string;
  /** The field the main side named (SpecError, ProjectRequestError), if any. */
  field: string | null;
}

/**
 * The draft's field a refusal is about. A program the app will not run (web mode without
 * --allow-commands, or not allowed in the desktop app) is refused with the field "command": that
 * is the first program entry's command line.
 */
function specField(field: string, sent: Draft): string {
  if (field !== 'command') return field;
  const solvers = Array.isArray(sent.solvers) ? sent.solvers : [];
  const k = solvers.findIndex((s) => typeof s === 'object' && s !== null && 'command' in s);
  return k >= 0 ? `solvers[${k}].command` : field;
}

export const useExperimentEditorStore = defineStore('experiment-editor', () => {
  const api = useApi();
  const project = useProjectStore();

  const draft = shallowRef<Draft>(newDraft());
  /** The JSON editor's text: the draft's JSON, or what the user is typing there. */
  const jsonText = ref(draftJson(draft.value));
  /** Why the JSON text is not a spec (the form keeps the last draft it was). */
  const jsonProblem = shallowRef<JsonProblem | null>(null);
  const undoStack = shallowRef<{ label: string; draft: Draft }[]>([]);
  const saving = ref(false);
  const saved = shallowRef<SaveOutcome | null>(null);
  const refusal = shallowRef<SaveRefusal | null>(null);
  const solvers = shallowRef<SolverDescriptor[]>([]);
  const solversError = ref<string | null>(null);

  const check = computed(() => checkDraft(draft.value));
  /** The local checks, and the main side's refusal while the draft is as it was sent. */
  const errors = computed<ReadonlyMap<string, string>>(() => {
    const r = refusal.value;
    if (!r?.field || check.value.errors.has(r.field)) return check.value.errors;
    return new Map([...check.value.errors, [r.field, r.message.replace(`${r.field}: `, '')]]);
  });
  const takenNames = computed(() => new Set(project.experiments.map((e) => e.name)));
  /** The open project already has an experiment of the draft's name. */
  const nameTaken = computed(() => typeof draft.value.name === 'string' && takenNames.value.has(draft.value.name));

  // What was said about a save is about the project it went to: another project, or none, and it goes.
  watch(
    () => project.summary?.path ?? null,
    () => {
      saved.value = null;
      refusal.value = null;
    },
  );

  function adopt(next: Draft): void {
    draft.value = markRaw(next);
    refusal.value = null;
    saved.value = null;
  }

  /** A form edit: the JSON text follows. */
  function update(next: Draft): void {
    adopt(next);
    jsonText.value = draftJson(next);
    jsonProblem.value = null;
  }

  /** An edit of the JSON text: the form follows when it parses to an object. */
  function editJson(text: string): void {
    jsonText.value = text;
    const parsed = parseDraftJson(text);
    if ('problem' in parsed) {
      jsonProblem.value = parsed.problem;
      return;
    }
    jsonProblem.value = null;
    adopt(parsed.draft);
  }

  /** Replaces the whole draft; Undo brings the one before back. */
  function replace(next: Draft, label: string): void {
    undoStack.value = [...undoStack.value.slice(-(UNDO_DEPTH - 1)), { label, draft: draft.value }];
    update(next);
  }

  function undo(): boolean {
    const last = undoStack.value[undoStack.value.length - 1];
    if (!last) return false;
    undoStack.value = undoStack.value.slice(0, -1);
    update(last.draft);
    return true;
  }

  const startNew = () => replace(newDraft(takenNames.value), 'new experiment');
  const cloneFrom = (spec: ExperimentSpec) => replace(cloneAsDraft(spec, takenNames.value), `clone of ${spec.name}`);

  async function loadSolvers(): Promise<void> {
    if (solvers.value.length) return;
    try {
      solvers.value = markRaw(await api.listSolvers());
      solversError.value = null;
    } catch (e) {
      solversError.value = `could not list the solvers: ${(e as Error).message}`;
    }
  }

  /**
   * Sends the draft as it is to addExperiment (checked there as `experiment add` checks it).
   * Refused: the reason (and its field) is kept and the draft stays exactly as it was.
   */
  async function save(): Promise<SaveOutcome | null> {
    if (jsonProblem.value || check.value.errors.size || saving.value) return null;
    const sent = draft.value;
    const existed = typeof sent.name === 'string' && takenNames.value.has(sent.name);
    saving.value = true;
    try {
      const experiment = await project.addExperiment(sent);
      const outcome: SaveOutcome = { kind: existed ? 'unchanged' : 'added', experiment };
      if (draft.value === sent) saved.value = outcome;
      return outcome;
    } catch (e) {
      const err = e as Error & { field?: string };
      if (draft.value === sent) {
        const field = typeof err.field === 'string' ? specField(err.field, sent) : null;
        const message = field !== null && field !== err.field ? err.message.replace(`${err.field}: `, `${field}: `) : err.message;
        refusal.value = { message, field };
      }
      return null;
    } finally {
      saving.value = false;
    }
  }

  return {
    draft,
    jsonText,
    jsonProblem,
    check,
    errors,
    undoStack,
    saving,
    saved,
    refusal,
    solvers,
    solversError,
    nameTaken,
    takenNames,
    update,
    editJson,
    replace,
    undo,
    startNew,
    cloneFrom,
    loadSolvers,
    save,
  };
});
