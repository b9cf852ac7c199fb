import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver whose schema is loaded on first use, for a form on a page that does
 * not load zod up front (e.g. the cart's coupon field): `lazyResolver(afterZod(() =>
 * import('./my-resolver.js').then((m) => m.resolver)))`. `preload` fetches it ahead of the first
 * submit (when the form appears). Only react-hook-form's types are imported here.
 */
export function lazyResolver<TFieldValues extends FieldValues, TContext, TTransformedValues>(
  load: () => Promise<Resolver<TFieldValues, TContext, TTransformedValues>>,
): Resolver<TFieldValues, TContext, TTransformedValues> & { preload: () => Promise<unknown> } {
  let pending: Promise<Resolver<TFieldValues, TContext, TTransformedValues>> | undefined;
  const get = () =>
    (pending ??= load().catch((err: unknown) => {
      pending = undefined; // let the next submit try again (e.g. after a deploy replaced the chunk)
      throw err;
    }));
  const resolver: Resolver<TFieldValues, TContext, TTransformedValues> = async (values, context, options) =>
    (await get())(values, context, options);
  return Object.assign(resolver, { preload: get });
}
