import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { SUBSCRIPTION_LIMITS, type AddExtraInput, type SkipItemInput, type SubscriptionView } from '../../../shared/subscriptions.js';
import { formatCents } from '../../../shared/money.js';
import { apiRequest } from '../../lib/api-client.js';
import { getProductQueryOptions } from '../../lib/get-product.js';
import { errorMessage } from '../../lib/error-message.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { FormError, inputClasses } from '../../ui/form-controls.js';
import { toast } from '../../ui/toast.js';
import { Heading, refusal } from './subscription-change-dialogs.js';
import { SUBSCRIPTION_UI_TEXTS as T, unitPriceText } from './subscription-texts.js';

type Actions = {
  onSkipItem: (body: SkipItemInput) => Promise<SubscriptionView>;
  onAddExtra: (body: AddExtraInput) => Promise<SubscriptionView>;
  onRemoveExtra: (variantId: string) => Promise<SubscriptionView>;
};

/**
 * "Edit next delivery": what the next delivery brings, changed for it only. Each item can be left
 * out this time (or brought back), one-time items removed, and a one-time item found by name,
 * its version and quantity chosen, added at the shop's price. Each click is sent at once and the
 * list shows the server's answer; a refusal is shown in the server's words.
 */
export function NextDeliveryEditDialog({
  subscription,
  open,
  onClose,
  ...actions
}: { subscription: SubscriptionView; open: boolean; onClose: () => void } & Actions) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={T.nextDeliveryTitle}
      className="sm:max-w-xl"
      footer={
        <Button onClick={onClose} className="w-full sm:w-auto">
          {T.done}
        </Button>
      }
    >
      {open && <NextDeliveryEditor subscription={subscription} {...actions} />}
    </Dialog>
  );
}

function NextDeliveryEditor({ subscription, onSkipItem, onAddExtra, onRemoveExtra }: { subscription: SubscriptionView } & Actions) {
  const id = useId();
  const [busy, setBusy] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const error = refusal(subscription, serverError);
  const run = async (key: string, act: () => Promise<unknown>) => {
    setBusy(key);
    setServerError(null);
    try {
      await act();
    } catch (err) {
      setServerError(errorMessage(err, T.actionFailed));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-1 text-stone-800">
        <Heading subscription={subscription} />
        <p className="text-sm">{T.nextDeliveryNote}</p>
      </div>
      <FormError id={`${id}-error`} message={error} />
      <ul className="flex flex-col divide-y divide-stone-100 rounded-lg border border-stone-200" aria-label="Items">
        {subscription.items.map((item) => (
          <li key={item.variantId} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2" data-testid="next-item">
            <span className={`min-w-0 break-words ${item.skipNext ? 'text-stone-500 line-through' : 'text-stone-900'}`}>
              {item.name} × {item.quantity}
              <span className="block text-sm text-stone-600 no-underline">{unitPriceText(item.unitPriceCents)}</span>
            </span>
            <Button
              variant="outline"
              size="sm"
              disabled={busy !== null}
              aria-label={`${item.skipNext ? T.bringBack : T.leaveOut}: ${item.name}`}
              onClick={() => void run(`skip:${item.variantId}`, () => onSkipItem({ variantId: item.variantId, skip: !item.skipNext }))}
            >
              {busy === `skip:${item.variantId}` ? T.saving : item.skipNext ? T.bringBack : T.leaveOut}
            </Button>
          </li>
        ))}
      </ul>
      <section className="flex flex-col gap-2" aria-labelledby={`${id}-extras`}>
        <h3 id={`${id}-extras`} className="font-semibold text-stone-900">
          {T.oneTimeHeading}
        </h3>
        {subscription.extras.length === 0 ? (
          <p className="text-sm text-stone-600">{T.oneTimeNone}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-stone-100 rounded-lg border border-stone-200">
            {subscription.extras.map((extra) => (
              <li key={extra.variantId} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2" data-testid="next-extra">
                <span className="min-w-0 break-words text-stone-900">
                  {extra.name} × {extra.quantity}
                  <span className="block text-sm text-stone-600">{unitPriceText(extra.unitPriceCents)}</span>
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={busy !== null}
                  aria-label={`${T.removeExtra}: ${extra.name}`}
                  onClick={() => void run(`remove:${extra.variantId}`, () => onRemoveExtra(extra.variantId))}
                >
                  {busy === `remove:${extra.variantId}` ? T.saving : T.removeExtra}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <AddExtraForm
        onAdd={(body) =>
          run('add', async () => {
            await onAddExtra(body);
            toast({ title: T.extraAdded });
          })
        }
        busy={busy !== null}
      />
    </div>
  );
}

type Found = { id: string; name: string; priceCents: number; soleVariantId: string | null };

/** Finds a product by name (the shop's own search), then its version and a quantity. */
function AddExtraForm({ onAdd, busy }: { onAdd: (body: AddExtraInput) => Promise<void>; busy: boolean }) {
  const id = useId();
  const [term, setTerm] = useState('');
  const [asked, setAsked] = useState('');
  const [productId, setProductId] = useState<string | null>(null);
  const [variantId, setVariantId] = useState('');
  const [quantity, setQuantity] = useState(1);
  const results = useQuery({
    queryKey: ['subscription-extra-search', asked],
    enabled: asked.length > 0,
    queryFn: ({ signal }) => apiRequest('/api/products', (s) => s.ProductPage, { query: { search: asked, pageSize: '6' }, signal }),
  });
  const product = useQuery({ ...getProductQueryOptions(productId ?? ''), enabled: productId !== null });
  const variants = (product.data?.variants ?? []).filter((v) => v.available > 0);
  const chosen = variants.find((v) => v.id === variantId) ?? variants[0];
  const search = (e: FormEvent) => {
    e.preventDefault();
    setProductId(null);
    setAsked(term.trim());
  };
  const items: Found[] = (results.data?.items ?? []) as Found[];
  return (
    <section className="flex flex-col gap-3 rounded-lg bg-stone-50 p-3" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="font-semibold text-stone-900">
        {T.addExtraHeading}
      </h3>
      <form className="flex flex-col gap-2 sm:flex-row sm:items-end" onSubmit={search} role="search">
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <label htmlFor={`${id}-search`} className="text-sm font-medium text-stone-800">
            {T.searchLabel}
          </label>
          <input
            id={`${id}-search`}
            type="search"
            className={inputClasses()}
            placeholder={T.searchPlaceholder}
            value={term}
            maxLength={100}
            onChange={(e) => setTerm(e.target.value)}
          />
        </div>
        <Button type="submit" variant="outline" disabled={!term.trim()}>
          Search
        </Button>
      </form>
      {asked && results.isFetching && <p className="text-sm text-stone-600">{T.searching}</p>}
      {asked && results.data && items.length === 0 && <p className="text-sm text-stone-600">{T.noResults}</p>}
      {items.length > 0 && (
        <ul className="flex flex-col gap-1" aria-label="Products found">
          {items.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className={`w-full rounded-md px-3 py-2 text-left text-sm ${
                  productId === p.id ? 'bg-green-100 text-green-950' : 'bg-white text-stone-900 hover:bg-stone-100'
                } focus:outline-none focus-visible:ring-2 focus-visible:ring-green-700`}
                aria-pressed={productId === p.id}
                onClick={() => {
                  setProductId(p.id);
                  setVariantId('');
                }}
              >
                {p.name} <span className="text-stone-600">· from {formatCents(p.priceCents)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {productId && product.data && (
        <form
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            if (chosen) void onAdd({ variantId: chosen.id, quantity });
          }}
        >
          {variants.length === 0 ? (
            <p className="text-sm text-stone-700">Out of stock right now.</p>
          ) : (
            <>
              {variants.length > 1 && (
                <div className="flex min-w-0 flex-1 flex-col gap-1.5">
                  <label htmlFor={`${id}-version`} className="text-sm font-medium text-stone-800">
                    {T.versionOf}
                  </label>
                  <select
                    id={`${id}-version`}
                    className={inputClasses()}
                    value={chosen?.id ?? ''}
                    onChange={(e) => setVariantId(e.target.value)}
                  >
                    {variants.map((v) => (
                      <option key={v.id} value={v.id}>
                        {v.label || 'Standard'} · {formatCents(v.priceCents)}
                      </option>
                    ))}
                  </select>
                </div>
              )}
              <div className="flex flex-col gap-1.5">
                <label htmlFor={`${id}-qty`} className="text-sm font-medium text-stone-800">
                  {T.quantityLabel}
                </label>
                <input
                  id={`${id}-qty`}
                  type="number"
                  inputMode="numeric"
                  className={`${inputClasses()} w-24`}
                  min={1}
                  max={Math.min(SUBSCRIPTION_LIMITS.maxQuantity, chosen?.available ?? 1)}
                  value={quantity}
                  onChange={(e) => setQuantity(Math.max(1, Math.floor(Number(e.target.value) || 1)))}
                />
              </div>
              <Button type="submit" disabled={busy || !chosen}>
                {busy ? T.adding : T.addExtraButton}
              </Button>
            </>
          )}
        </form>
      )}
    </section>
  );
}
