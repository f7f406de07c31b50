/**
 * An input refused for one field: `field` names it (as the user wrote it: "budget.target",
 * "params.A", "alpha[3]"), `rule` says what is wrong. The message is "<field>: <rule>", and the
 * API carries both across the wire (src-shared/api.ts, toWireError). Each kind of input has
 * its subclass, which sets its `name` explicitly (bundlers may rename classes), so errors keep
 * their class name across the wire:
 *
 *   export class SpecError extends FieldError {
 *     override readonly name = 'SpecError';
 *   }
 */
export class FieldError extends Error {
  override name = 'FieldError';
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${field}: ${rule}`);
  }
}
