let pending: Promise<void> | undefined;

/**
 * Loads and evaluates zod on its own, then gives the browser a turn. What needs zod (the response
 * schemas, a page with a form) is imported after this, so building its schemas runs in a task of
 * its own instead of adding to the library's: two shorter tasks where a phone would see one long one.
 */
export function loadZod(): Promise<void> {
  pending ??= import('./zod-config.js').then(
    () => new Promise<void>((resolve) => setTimeout(resolve, 0)),
    (err: unknown) => {
      pending = undefined; // let the next caller try again (e.g. after a deploy replaced the chunk)
      throw err;
    },
  );
  return pending;
}

/** `import()` of a module that uses zod, with zod evaluated first in a task of its own. */
export function afterZod<T>(load: () => Promise<T>): () => Promise<T> {
  return () => loadZod().then(load);
}
