import { z } from 'zod';

/** `?page=`: a page number from 1, the first page when absent. */
export const pageNumber = z.coerce
  .number({ message: 'page must be a number' })
  .int('page must be a whole number')
  .min(1, 'page must be at least 1')
  .max(100000, 'page cannot exceed 100000')
  .default(1);

/** `?page=&pageSize=` (and an optional `search=`) as every paginated list reads them. */
export function pageQuery(defaultPageSize: number, maxPageSize = 100) {
  return z
    .object({
      page: pageNumber,
      pageSize: z.coerce
        .number({ message: 'pageSize must be a number' })
        .int('pageSize must be a whole number')
        .min(1, 'pageSize must be at least 1')
        .max(maxPageSize, `pageSize cannot exceed ${maxPageSize}`)
        .default(defaultPageSize),
      search: z
        .string()
        .trim()
        .max(100, 'Search text cannot exceed 100 characters')
        .optional()
        .transform((v) => v || undefined),
    })
    .strict();
}

/** One page of a list, as every paginated answer sends it: the items and where they sit in the whole. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  });
}
