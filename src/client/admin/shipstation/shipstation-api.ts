import '../../lib/zod-config.js';
import { useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { adminGet, adminSend, logUnexpected } from '../api/admin-api.js';

/**
 * GET /api/shipstation/test: enabled = turned on with keys; connected = ShipStation accepted them;
 * when not, `problem` says why (keys: it refused them; unavailable: it did not answer) and `message` in words.
 */
const ShipStationStatus = z.object({
  connected: z.boolean(),
  enabled: z.boolean(),
  version: z.enum(['v1', 'v2']).optional(),
  problem: z.enum(['keys', 'unavailable', 'refused']).optional(),
  message: z.string().optional(),
});
export type ShipStationStatus = z.infer<typeof ShipStationStatus>;

/** ShipStation's own carrier list, v2 ({carriers: [...]}) or v1 (an array), reduced to names. */
const ShipStationCarriers = z
  .union([
    z.object({
      carriers: z.array(
        z.object({ carrier_id: z.string().optional(), friendly_name: z.string().optional(), carrier_code: z.string().optional() }),
      ),
    }),
    z.array(z.object({ name: z.string().optional(), code: z.string().optional() })),
  ])
  .transform((r) =>
    (Array.isArray(r) ? r.map((c) => c.name ?? c.code) : r.carriers.map((c) => c.friendly_name ?? c.carrier_code ?? c.carrier_id)).filter(
      (n): n is string => Boolean(n),
    ),
  );

const TestOrderResponse = z.object({ ok: z.literal(true), result: z.unknown() });

const KEY = ['admin', 'shipstation'] as const;

/** Runs once per visit (a real call to ShipStation); the Test Connection button runs it again. */
export function useShipStationStatus() {
  return useQuery({
    queryKey: [...KEY, 'status'] as const,
    queryFn: ({ signal }) => adminGet('/api/shipstation/test', ShipStationStatus, undefined, signal),
    staleTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
}

export function useShipStationCarriers(enabled: boolean) {
  return useQuery({
    queryKey: [...KEY, 'carriers'] as const,
    queryFn: ({ signal }) => adminGet('/api/shipstation/carriers', ShipStationCarriers, undefined, signal),
    enabled,
    retry: false,
    staleTime: 5 * 60_000,
  });
}

export function useCreateTestOrder() {
  return useMutation({
    onError: logUnexpected,
    mutationFn: () => adminSend('POST', '/api/shipstation/test-order', TestOrderResponse),
  });
}
