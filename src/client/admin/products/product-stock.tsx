import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { StockAdjustmentForm } from '../../../shared/schemas/admin/products.js';
import type { AdminVariant } from '../../../shared/schemas/admin/variants.js';
import {
  STOCK_MOVEMENT_LABELS,
  STOCK_REASON_LABELS,
  STOCK_REASONS,
  StockThresholdInput,
  type StockAdjustmentInput,
  type StockMovementView,
  type StockReason,
} from '../../../shared/schemas/inventory.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { formatDateTime } from '../../lib/format.js';
import { useAdjustStock } from '../api/adjust-stock.js';
import { messageOf } from '../api/admin-api.js';
import { useStockHistory } from '../api/get-stock-history.js';
import { useSetStockThreshold } from '../api/set-stock-threshold.js';
import type { StockTarget } from '../api/stock-target.js';
import { DataTable, Field, fieldAria, inputCls, ListState, PageNav, type Column } from '../components/admin-ui.js';
import { StockBadge } from './stock-badge.js';

/** Rows of the history per page: the dialog stays short. */
export const STOCK_HISTORY_PAGE_SIZE = 10;

/** What the quantity means for each reason. */
const QUANTITY_HINTS: Record<StockReason, string> = {
  received: 'Units that arrived: added to the level.',
  damaged: 'Units damaged or lost: taken from the level.',
  correction: 'A signed change: 3 adds three units, −3 takes three away.',
  counted: 'The units on the shelf now: the level becomes this number.',
};

/** "+3", "−2" (a true minus sign), "0". */
function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0';
}

/**
 * The product's (or the chosen variant's) level as the owner reads it: on hand, kept by open
 * checkouts, and buyable. Read-only: the level changes only by an adjustment (or a sale, a return),
 * never by saving the product.
 */
export function StockLevel({ target, page }: { target: StockTarget; page: number }) {
  const { data, error } = useStockHistory(target, page, STOCK_HISTORY_PAGE_SIZE);
  const s = data?.stock;
  return (
    <div className="flex flex-col gap-1">
      <span id="product-stock-label" className="text-sm font-medium text-stone-900">
        Stock
      </span>
      <p
        role="status"
        aria-labelledby="product-stock-label"
        data-testid="stock-level"
        className="flex min-h-10 flex-wrap items-center gap-x-2 gap-y-1 rounded-md border border-stone-200 bg-stone-50 px-3 py-2 text-sm text-stone-900"
      >
        {s ? (
          <>
            <span className="tabular-nums">
              On hand {s.onHand} · {s.reserved} in checkouts · {s.available} available
            </span>
            <StockBadge onHand={s.onHand} threshold={s.lowStockThreshold} />
          </>
        ) : error ? (
          <span className="text-red-700">{messageOf(error, 'Could not load the stock')}</span>
        ) : (
          <span className="text-stone-600">Loading stock…</span>
        )}
      </p>
      <p className="text-xs text-stone-600">Change it with Adjust stock below.</p>
    </div>
  );
}

/** A reason, a quantity and an optional note; saved at once, apart from the product's own Save. */
function AdjustStockForm({ target, onAdjusted }: { target: StockTarget; onAdjusted: () => void }) {
  const adjust = useAdjustStock(target);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(StockAdjustmentForm),
    defaultValues: { reason: 'received' as StockReason, quantity: '', note: '' },
  });
  const reason = useWatch({ control, name: 'reason' });
  const submit = (body: StockAdjustmentInput) =>
    adjust.mutate(body, {
      onSuccess: ({ stock }) => {
        toast({ title: 'Stock updated', description: `On hand ${stock.onHand} · ${stock.available} available` });
        reset({ reason: body.reason, quantity: '', note: '' });
        onAdjusted();
      },
      // The form checks the same schema first, so what the server still refuses is about the
      // quantity: below 0 at the level as it is now (409), above the maximum, or the product gone.
      onError: (err) => setError('quantity', { message: messageOf(err) }, { shouldFocus: true }),
    });
  const quantityError = errors.quantity?.message;
  const noteError = errors.note?.message;
  return (
    <form
      aria-labelledby="adjust-stock-title"
      className="flex flex-col gap-3 rounded-lg border border-stone-200 p-3 sm:p-4"
      onSubmit={(e) => void handleSubmit(submit)(e)}
      noValidate
    >
      <h4 id="adjust-stock-title" className="font-semibold text-stone-900">
        Adjust stock
      </h4>
      <fieldset disabled={adjust.isPending} className="grid min-w-0 gap-3 sm:grid-cols-2">
        <Field label="Reason" htmlFor="stock-reason">
          <select id="stock-reason" className={inputCls} {...register('reason')}>
            {STOCK_REASONS.map((r) => (
              <option key={r} value={r}>
                {STOCK_REASON_LABELS[r]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Quantity" required htmlFor="stock-quantity" error={quantityError} hint={QUANTITY_HINTS[reason]}>
          <input
            id="stock-quantity"
            type="number"
            step="1"
            min={reason === 'correction' ? undefined : reason === 'counted' ? '0' : '1'}
            // A correction may be negative: a numeric keypad without a minus key would not do.
            inputMode={reason === 'correction' ? 'text' : 'numeric'}
            className={inputCls}
            {...register('quantity')}
            {...fieldAria(quantityError, 'stock-quantity-error')}
          />
        </Field>
        <div className="sm:col-span-2">
          <Field label="Note (optional)" htmlFor="stock-note" error={noteError}>
            <input
              id="stock-note"
              className={inputCls}
              maxLength={500}
              placeholder="Supplier delivery, shelf count…"
              {...register('note')}
              {...fieldAria(noteError, 'stock-note-error')}
            />
          </Field>
        </div>
        <div className="flex justify-end sm:col-span-2">
          <Button type="submit" variant="outline">
            {adjust.isPending ? 'Saving…' : 'Save adjustment'}
          </Button>
        </div>
      </fieldset>
    </form>
  );
}

const orderHref = (orderId: string) => `/admin?tab=orders&view=details&order=${encodeURIComponent(orderId)}`;

const HISTORY_COLUMNS: Column<StockMovementView>[] = [
  {
    header: 'Date',
    cell: (m) => (
      <time dateTime={m.createdAt} className="whitespace-nowrap">
        {formatDateTime(m.createdAt)}
      </time>
    ),
  },
  {
    header: 'What',
    primary: true,
    cell: (m) => (
      <span className="flex flex-col">
        <span className="font-medium text-stone-900">{STOCK_MOVEMENT_LABELS[m.kind]}</span>
        {m.orderId && (
          <Link to={orderHref(m.orderId)} className="text-xs text-brand-800 underline underline-offset-2">
            Order #{m.reference ?? m.orderId}
          </Link>
        )}
      </span>
    ),
  },
  {
    header: 'Change',
    numeric: true,
    cell: (m) => <span className={m.quantity < 0 ? 'text-red-800' : 'text-green-800'}>{signed(m.quantity)}</span>,
  },
  { header: 'Level after', numeric: true, cell: (m) => m.levelAfter },
  { header: 'By', className: 'wrap-anywhere', cell: (m) => m.actor },
  // (A note that only repeats the kind, like the opening row's, says nothing more.)
  { header: 'Note', className: 'md:max-w-40', cell: (m) => (m.note && m.note !== STOCK_MOVEMENT_LABELS[m.kind] ? m.note : '—') },
];

/** The threshold as typed ('' reads as no number, which the body schema refuses in its own words). */
const ThresholdForm = z
  .object({ lowStockThreshold: z.string() })
  .transform((v) => ({ lowStockThreshold: v.lowStockThreshold.trim() === '' ? NaN : Number(v.lowStockThreshold) }))
  .pipe(StockThresholdInput);

/** A variant's low-stock threshold, saved at once (a product sold in one variant has it in the product form). */
function VariantThresholdForm({ target, threshold }: { target: StockTarget; threshold: number }) {
  const set = useSetStockThreshold(target);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(ThresholdForm), defaultValues: { lowStockThreshold: String(threshold) } });
  const error = errors.lowStockThreshold?.message;
  return (
    <form
      className="flex flex-wrap items-start gap-x-2 gap-y-1"
      onSubmit={(e) =>
        void handleSubmit((body) =>
          set.mutate(body, {
            onSuccess: ({ stock }) =>
              toast({ title: 'Threshold saved', description: `Low at ${stock.lowStockThreshold} or fewer on hand` }),
            onError: (err) => setError('lowStockThreshold', { message: messageOf(err) }, { shouldFocus: true }),
          }),
        )(e)
      }
      noValidate
    >
      <div className="min-w-0 flex-1 basis-48 sm:max-w-xs">
        <Field
          label="Low-stock threshold"
          htmlFor="stock-threshold"
          error={error}
          hint="At or below it the shop says “Only N left” and the variant is flagged Low."
        >
          <input
            id="stock-threshold"
            type="number"
            min="0"
            step="1"
            inputMode="numeric"
            className={inputCls}
            {...register('lowStockThreshold')}
            {...fieldAria(error, 'stock-threshold-error')}
          />
        </Field>
      </div>
      {/* Level with the input (under its label) on a wide screen; under it on a phone. */}
      <Button type="submit" variant="outline" disabled={set.isPending} className="sm:mt-6">
        {set.isPending ? 'Saving…' : 'Save threshold'}
      </Button>
    </form>
  );
}

/** "Lavender, 16 oz — 12 on hand", and whether it is switched off, as the variant select lists it. */
function variantChoice(v: AdminVariant): string {
  return `${v.label || 'Default'} — ${v.stock.onHand} on hand${v.stock.alertState === 'out' ? ', sold out' : v.stock.alertState === 'low' ? ', low' : ''}${v.enabled ? '' : ' (switched off)'}`;
}

/**
 * The edited product's stock: the Adjust stock form and the ledger, newest first, a page at a time.
 * A product with options has them per variant: `variants` lists its variants, and the owner chooses
 * one (`variantId`), sees its level, sets its threshold, adjusts it and reads its history.
 */
export function ProductStock({
  productId,
  page,
  onPage,
  variants,
  variantId,
  onVariant,
}: {
  productId: string;
  page: number;
  onPage: (page: number) => void;
  variants?: readonly AdminVariant[] | undefined;
  variantId?: string | undefined;
  onVariant?: (variantId: string) => void;
}) {
  const chosen = variants ? (variants.find((v) => v.id === variantId) ?? variants[0]) : undefined;
  const target: StockTarget = { productId, variantId: chosen?.id };
  const { data, error, isPending, isFetching, isPlaceholderData, refetch } = useStockHistory(target, page, STOCK_HISTORY_PAGE_SIZE);
  return (
    <section aria-labelledby="product-stock-title" className="mt-6 flex min-w-0 flex-col gap-4 border-t border-stone-200 pt-4">
      <div>
        <h3 id="product-stock-title" className="text-lg font-semibold text-stone-900">
          Stock
        </h3>
        <p className="text-sm text-stone-700">
          {variants
            ? 'Each variant has its own stock. An adjustment is saved at once and recorded below; Save Product does not change stock.'
            : 'An adjustment is saved at once and recorded below; Save Product does not change stock.'}
        </p>
      </div>
      {variants && chosen && (
        <div className="grid min-w-0 gap-4 sm:grid-cols-2">
          <Field label="Variant" htmlFor="stock-variant" hint="The variant whose stock you see and change below.">
            <select
              id="stock-variant"
              className={inputCls}
              value={chosen.id}
              onChange={(e) => {
                onVariant?.(e.target.value);
                onPage(1);
              }}
            >
              {variants.map((v) => (
                <option key={v.id} value={v.id}>
                  {variantChoice(v)}
                </option>
              ))}
            </select>
          </Field>
          <StockLevel target={target} page={page} />
          <div className="sm:col-span-2">
            {/* Keyed by variant: another variant's form starts from its own threshold. */}
            <VariantThresholdForm key={chosen.id} target={target} threshold={chosen.stock.lowStockThreshold} />
          </div>
        </div>
      )}
      <AdjustStockForm key={chosen?.id ?? productId} target={target} onAdjusted={() => onPage(1)} />
      <div className="flex min-w-0 flex-col gap-2">
        <h4 className="font-semibold text-stone-900">{chosen ? `Stock history of ${chosen.label || 'Default'}` : 'Stock history'}</h4>
        <ListState
          isPending={isPending}
          error={error && !data ? error : null}
          onRetry={() => void refetch()}
          loadingLabel="Loading stock history"
          isEmpty={data?.items.length === 0}
          empty={<p>No stock changes recorded yet.</p>}
        >
          {data && (
            <>
              <DataTable
                caption="Stock history, newest first"
                rows={data.items}
                rowKey={(m) => m.id}
                columns={HISTORY_COLUMNS}
                busy={isPlaceholderData}
                dense
              />
              <PageNav page={page} totalPages={data.totalPages} onPage={onPage} busy={isFetching} />
            </>
          )}
        </ListState>
      </div>
    </section>
  );
}
