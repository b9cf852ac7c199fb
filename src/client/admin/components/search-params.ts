/**
 * A back-office panel's state kept in the address (a list's filters and page, a figures panel's
 * period), so reload and Back keep it: `params` with `changes` written under their names
 * (`names`). `null`, an empty value and page 1 leave the parameter out, so the plain view has a plain address.
 */
export function withParams<K extends string>(
  params: URLSearchParams,
  names: Record<K, string>,
  changes: Partial<Record<K, string | number | null>>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes) as [K, string | number | null][]) {
    const name = names[key];
    if (value === null || value === '' || (key === 'page' && value === 1)) next.delete(name);
    else next.set(name, String(value));
  }
  return next;
}
