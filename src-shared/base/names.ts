/**
 * The one rule for a name that labels runs in tables, file names and reports: an experiment's,
 * an instance's and a solver's name or label in an experiment spec, a solver program's name (the
 * API's startRun with a program, `saikoro solve --name`) and a competition's entrant. Each door
 * says which name it refuses and appends NAME_RULE.
 */
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

/** What a name must be, in words (after "name: "). */
export const NAME_RULE = 'must be 1-64 characters of letters, digits, . _ + - (starting with a letter or digit)';

/** Whether `v` is a name by the rule. */
export function isName(v: unknown): v is string {
  return typeof v === 'string' && NAME_PATTERN.test(v);
}
