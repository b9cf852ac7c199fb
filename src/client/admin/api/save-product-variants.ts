import '../../lib/zod-config.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AdminProductVariants, type ProductVariantsInput } from '../../../shared/schemas/admin/variants.js';
import { adminSend, logUnexpected } from './admin-api.js';
import { variantsKey } from './get-product-variants.js';

function saveProductVariants(productId: string, body: ProductVariantsInput): Promise<AdminProductVariants> {
  return adminSend('PUT', `/api/admin/products/${encodeURIComponent(productId)}/variants`, AdminProductVariants, body);
}

/**
 * Replaces a product's options and variants with the owner's set (one request, one transaction).
 * The answer is the set as saved (new variants with their ids); the product list, stock and the
 * shop's product queries are read again.
 */
export function useSaveProductVariants(productId: string) {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: ProductVariantsInput) => saveProductVariants(productId, body),
    onSuccess: (set) => qc.setQueryData(variantsKey(productId), set),
    onSettled: () =>
      Promise.all([qc.invalidateQueries({ queryKey: ['admin', 'products'] }), qc.invalidateQueries({ queryKey: ['products'] })]),
  });
}
