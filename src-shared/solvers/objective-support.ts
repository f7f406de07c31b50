/** Whether a solver handles a problem with M objectives: the one place that says it. */
import type { ObjectiveSupport } from './types.ts';

export function handlesObjectives(support: ObjectiveSupport, objectiveCount: number): boolean {
  return support === 'any' || (support === 'single') === (objectiveCount === 1);
}
