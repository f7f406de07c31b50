// Termination moved to the generic runtime; kept here for the solver framework's importers.
export { TerminationError, terminationProgress, validateTermination } from '../runtime/termination.ts';
