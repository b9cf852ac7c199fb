/**
 * A form control's ARIA while it has a problem: marked invalid and described by the message
 * shown under it (`{id}-error`). Nothing while it is fine.
 */
export function fieldAria(id: string, error: string | undefined): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
}

/**
 * The schema's problem with the form as a whole: an issue on no field (a rule across fields, e.g.
 * "Passwords do not match"), which @hookform/resolvers reports under the empty name.
 */
export function formLevelError(errors: object): string | undefined {
  const whole: unknown = (errors as Record<string, unknown>)[''];
  return whole && typeof whole === 'object' && 'message' in whole && typeof whole.message === 'string' ? whole.message : undefined;
}
