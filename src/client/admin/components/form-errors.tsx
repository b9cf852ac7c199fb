import type { FieldErrors, FieldValues } from 'react-hook-form';

/** Every message in react-hook-form's errors, with the dotted path of its field. */
export function flattenErrors(errors: FieldErrors<FieldValues> | object, prefix = ''): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object' || key === 'ref') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const message = (value as { message?: unknown }).message;
    if (typeof message === 'string' && message) out.push({ path, message });
    else out.push(...flattenErrors(value as object, path));
  }
  return out;
}

/**
 * The safety net under a form: any message the schema gives for a field that has no place for it
 * on screen (or for the form as a whole), so Save never does nothing in silence. `placed` lists
 * the fields (dotted paths, or a prefix such as `images`) that show their own message.
 */
export function UnplacedErrors({ errors, placed, id }: { errors: object; placed: readonly string[]; id: string }) {
  const rest = flattenErrors(errors).filter((e) => !placed.some((p) => e.path === p || e.path.startsWith(`${p}.`)));
  if (rest.length === 0) return null;
  return (
    <div id={id} role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
      {rest.length === 1 ? (
        <p>{rest[0]?.message}</p>
      ) : (
        <>
          <p className="font-medium">Please fix the following:</p>
          <ul className="ml-5 list-disc">
            {rest.map((e) => (
              <li key={e.path}>{e.message}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
