import '../../lib/zod-config.js';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { AdminProductVariants } from '../../../shared/schemas/admin/variants.js';
import { adminGet } from './admin-api.js';

/** Under the Products tab's key: whatever refreshes the product list (a stock change, a save) refreshes the variants too. */
export const variantsKey = (productId: string) => ['admin', 'products', 'variants', productId] as const;

function getProductVariants(productId: string, signal?: AbortSignal): Promise<AdminProductVariants> {
  return adminGet(`/api/admin/products/${encodeURIComponent(productId)}/variants`, AdminProductVariants, undefined, signal);
}

export function getProductVariantsQueryOptions(productId: string) {
  return queryOptions({
    queryKey: variantsKey(productId),
    queryFn: ({ signal }) => getProductVariants(productId, signal),
    // Stock moves with every sale: read afresh each time a screen asks.
    staleTime: 0,
  });
}

/** A product's options and every variant (switched off ones too), each with its stock and whether it has history. */
export function useProductVariants(productId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getProductVariantsQueryOptions(productId), enabled });
}
