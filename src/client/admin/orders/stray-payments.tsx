import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { formatCents } from '../../../shared/money.js';
import { STRAY_PAYMENT_TEXTS, StrayPaymentList, type StrayPaymentView } from '../../../shared/schemas/payments.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { formatDateTime } from '../../lib/format.js';
import { adminGet, adminSend, messageOf } from '../api/admin-api.js';

/*
 * Payments that arrived for a checkout or link the shop had ended (issue [1/8]): never the order's,
 * refunded automatically; what the provider did not refund is the owner's, on the order and at the
 * top of the Orders tab, with a retry and a settle-by-hand.
 */

const STRAY_REFRESH_MS = 30_000;
const strayKey = ['admin', 'stray-payments'] as const;

function useStrayPayments(orderId: string | null) {
  return useQuery({
    queryKey: [...strayKey, orderId ?? 'open'] as const,
    queryFn: ({ signal }) =>
      adminGet(
        orderId ? `/api/admin/orders/${encodeURIComponent(orderId)}/stray-payments` : '/api/admin/stray-payments',
        StrayPaymentList,
        undefined,
        signal,
      ),
    staleTime: 0,
    refetchInterval: STRAY_REFRESH_MS,
  });
}

const Answer = z.object({ status: z.string(), error: z.string().nullable().optional() });

function useStrayAction() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, note }: { id: string; action: 'retry' | 'settle'; note?: string }) =>
      adminSend('POST', `/api/admin/stray-payments/${encodeURIComponent(id)}/${action}`, Answer, action === 'settle' ? { note } : {}),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: strayKey }), qc.invalidateQueries({ queryKey: ['admin', 'orders'] })]),
  });
}

const TONE: Record<StrayPaymentView['status'], string> = {
  refunding: 'border-amber-300 bg-amber-50 text-amber-950',
  failed: 'border-red-300 bg-red-50 text-red-950',
  refunded: 'border-stone-200 bg-stone-50 text-stone-800',
  settled: 'border-stone-200 bg-stone-50 text-stone-800',
};

function StrayPaymentItem({ p, showOrder, onOpenOrder }: { p: StrayPaymentView; showOrder: boolean; onOpenOrder?: (id: string) => void }) {
  const act = useStrayAction();
  const [settling, setSettling] = useState(false);
  const [note, setNote] = useState('');
  const open = p.status === 'failed' || p.status === 'refunding';
  const run = (action: 'retry' | 'settle') =>
    act.mutate(
      { id: p.id, action, note },
      {
        onSuccess: (a) =>
          toast({
            title: a.status === 'refunded' ? 'Refunded' : a.status === 'settled' ? 'Settled' : 'Refund failed',
            description:
              a.status === 'failed'
                ? (a.error ?? STRAY_PAYMENT_TEXTS.status.failed)
                : STRAY_PAYMENT_TEXTS.status[a.status as StrayPaymentView['status']],
            variant: a.status === 'failed' ? 'destructive' : 'default',
          }),
        onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
      },
    );
  const submitSettle = (e: FormEvent) => {
    e.preventDefault();
    run('settle');
  };
  return (
    <li className={`flex flex-col gap-2 rounded-lg border p-3 text-sm ${TONE[p.status]}`}>
      <p className="font-medium">
        {showOrder && (
          <>
            {onOpenOrder ? (
              <button type="button" className="underline underline-offset-2" onClick={() => onOpenOrder(p.orderId)}>
                Order #{p.orderNumber}
              </button>
            ) : (
              <>Order #{p.orderNumber}</>
            )}
            {': '}
          </>
        )}
        {STRAY_PAYMENT_TEXTS.headline(formatCents(p.amountCents), p.reason)}
      </p>
      <p>
        {STRAY_PAYMENT_TEXTS.status[p.status]}
        {p.status === 'failed' && p.error ? ` Stripe said: “${p.error}”.` : ''}
        {p.providerRefundId && p.providerRefundId !== 'none' ? ` Refund ${p.providerRefundId}.` : ''}
        {p.settledBy ? ` By ${p.settledBy}.` : ''}
      </p>
      <p className="text-xs opacity-80">
        {formatDateTime(p.createdAt)} · session {p.sessionId}
      </p>
      {open && (
        <div className="flex flex-wrap items-end gap-2">
          <Button size="sm" onClick={() => run('retry')} disabled={act.isPending}>
            {STRAY_PAYMENT_TEXTS.retry}
          </Button>
          {p.status === 'failed' && !settling && (
            <Button size="sm" variant="outline" onClick={() => setSettling(true)}>
              {STRAY_PAYMENT_TEXTS.settle}
            </Button>
          )}
          {settling && (
            <form onSubmit={submitSettle} className="flex w-full flex-wrap items-end gap-2">
              <label className="flex min-w-0 flex-1 flex-col gap-1">
                <span className="text-xs font-medium">How was it settled?</span>
                <input
                  className="h-9 rounded-md border border-stone-300 bg-white px-2 text-stone-900"
                  value={note}
                  maxLength={500}
                  required
                  onChange={(e) => setNote(e.target.value)}
                  placeholder="e.g. Refunded in Stripe's dashboard"
                />
              </label>
              <Button size="sm" type="submit" disabled={act.isPending || note.trim() === ''}>
                {STRAY_PAYMENT_TEXTS.settle}
              </Button>
            </form>
          )}
        </div>
      )}
    </li>
  );
}

/** On an order: every payment it could not take, and what became of it. Nothing when there are none. */
export function OrderStrayPayments({ orderId }: { orderId: string }) {
  const q = useStrayPayments(orderId);
  if (!q.data || q.data.items.length === 0) return null;
  return (
    <section aria-labelledby="stray-payments-title" className="rounded-lg border border-stone-200 p-4">
      <h3 id="stray-payments-title" className="mb-2 text-lg font-semibold text-stone-900">
        Payments not taken for this order
      </h3>
      <ul className="flex flex-col gap-2">
        {q.data.items.map((p) => (
          <StrayPaymentItem key={p.id} p={p} showOrder={false} />
        ))}
      </ul>
    </section>
  );
}

/** At the top of the Orders tab while any refund of a stray payment is unsettled. Nothing otherwise. */
export function StrayPaymentsAlert({ onOpenOrder }: { onOpenOrder: (orderId: string) => void }) {
  const q = useStrayPayments(null);
  if (!q.data || q.data.openCount === 0) return null;
  return (
    <section aria-labelledby="stray-alert-title" className="rounded-xl border border-red-300 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="stray-alert-title" className="mb-3 text-xl font-semibold text-red-900">
        {STRAY_PAYMENT_TEXTS.dashboardTitle} ({q.data.openCount})
      </h2>
      <ul className="flex flex-col gap-2">
        {q.data.items.map((p) => (
          <StrayPaymentItem key={p.id} p={p} showOrder onOpenOrder={onOpenOrder} />
        ))}
      </ul>
    </section>
  );
}
