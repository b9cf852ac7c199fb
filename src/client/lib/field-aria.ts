/**
 * A form control's ARIA while it has a problem: marked invalid and described by the message
 * shown under it (`{id}-error`). Nothing while it is fine.
 */
export function fieldAria(id: string, error: string | undefined): { 'aria-invalid'?: true; 'aria-describedby'?: string } {
  return error ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {};
}
