import '../../lib/zod-config.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { StockView, type StockAdjustmentInput } from '../../../shared/schemas/inventory.js';
import { adminSend, logUnexpected } from './admin-api.js';

const StockResponse = z.object({ stock: StockView });

function adjustStock(productId: string, body: StockAdjustmentInput) {
  return adminSend('POST', `/api/admin/products/${encodeURIComponent(productId)}/stock`, StockResponse, body);
}

/**
 * One stock change by the owner. Afterwards the product list and the stock history (both under
 * ['admin', 'products']) and the shop's product queries are read again.
 */
export function useAdjustStock(productId: string) {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: StockAdjustmentInput) => adjustStock(productId, body),
    onSettled: () =>
      Promise.all([qc.invalidateQueries({ queryKey: ['admin', 'products'] }), qc.invalidateQueries({ queryKey: ['products'] })]),
  });
}
