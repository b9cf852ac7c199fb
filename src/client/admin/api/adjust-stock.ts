import '../../lib/zod-config.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { StockView, type StockAdjustmentInput } from '../../../shared/schemas/inventory.js';
import { adminSend, logUnexpected } from './admin-api.js';
import { stockPath, type StockTarget } from './stock-target.js';

const StockResponse = z.object({ stock: StockView });

function adjustStock(target: StockTarget, body: StockAdjustmentInput) {
  return adminSend('POST', stockPath(target), StockResponse, body);
}

/**
 * One stock change by the owner, of a product sold in one variant or of one variant. Afterwards
 * the product list, its variants and the stock history (all under ['admin', 'products']) and the
 * shop's product queries are read again.
 */
export function useAdjustStock(target: StockTarget) {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: StockAdjustmentInput) => adjustStock(target, body),
    onSettled: () =>
      Promise.all([qc.invalidateQueries({ queryKey: ['admin', 'products'] }), qc.invalidateQueries({ queryKey: ['products'] })]),
  });
}
