import '../../lib/zod-config.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { StockView, type StockThresholdInput } from '../../../shared/schemas/inventory.js';
import { adminSend, logUnexpected } from './admin-api.js';
import { stockPath, type StockTarget } from './stock-target.js';

const StockResponse = z.object({ stock: StockView });

function setStockThreshold(target: StockTarget, body: z.input<typeof StockThresholdInput>) {
  return adminSend('PUT', `${stockPath(target)}/threshold`, StockResponse, body);
}

/** The low-stock threshold of one variant (or of a product sold in one); the list and the shop read it again. */
export function useSetStockThreshold(target: StockTarget) {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: (body: z.input<typeof StockThresholdInput>) => setStockThreshold(target, body),
    onSettled: () =>
      Promise.all([qc.invalidateQueries({ queryKey: ['admin', 'products'] }), qc.invalidateQueries({ queryKey: ['products'] })]),
  });
}
