import { useState, type FormEvent, type ReactNode } from 'react';
import { ORDER_STATUSES } from '../../../shared/schemas/orders.js';
import { Button } from '../../ui/button.js';
import { ArrowLeftIcon } from '../../ui/icons.js';
import { toast } from '../../ui/toast.js';
import { useFormTimer } from '../../accounts/use-form-timer.js';
import { messageOf } from '../api/admin-api.js';
import { Field, inputCls, ListState, Panel } from '../components/admin-ui.js';
import { addressText } from './address.js';
import { useAdminOrder, useSaveOrder, type Status } from './order-api.js';
import type { OrdersNav } from './orders-tab.js';
import type { OrderView } from '../../../shared/schemas/orders.js';

type Values = { user_id: string; shipping_address: string; total_amount: string; status: Status };
type Errors = Partial<Record<keyof Values, string>>;

function validate(v: Values): Errors {
  const e: Errors = {};
  if (!v.user_id.trim()) e.user_id = 'User ID is required';
  if (!v.shipping_address.trim()) e.shipping_address = 'Shipping address is required';
  const n = Number(v.total_amount);
  if (v.total_amount.trim() === '') e.total_amount = 'Total amount is required';
  else if (!Number.isFinite(n)) e.total_amount = 'Total amount must be a number';
  else if (n < 0) e.total_amount = 'Total amount cannot be negative';
  else if (Math.abs(Math.round(n * 100) - n * 100) > 1e-6) e.total_amount = 'Total amount can have at most 2 decimals';
  return e;
}

function FormBody({ order, nav }: { order: OrderView | null; nav: OrdersNav }) {
  const editing = order !== null;
  const elapsed = useFormTimer();
  const save = useSaveOrder(order?.id ?? null);
  const [values, setValues] = useState<Values>(() => ({
    user_id: order?.userId ?? '',
    shipping_address: order ? addressText(order.shippingAddress) : '',
    total_amount: order ? (order.totalCents / 100).toFixed(2) : '',
    status: order?.status ?? 'pending',
  }));
  const [website, setWebsite] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const set = <K extends keyof Values>(k: K, v: Values[K]) => setValues((prev) => ({ ...prev, [k]: v }));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(
      {
        user_id: values.user_id.trim(),
        shipping_address: values.shipping_address.trim(),
        total_amount: Math.round(Number(values.total_amount) * 100) / 100,
        status: values.status,
        elapsedMs: Math.round(elapsed()),
        website,
      },
      {
        onSuccess: (res) => {
          if ('ignored' in res) return; // the bot guard tripped: silently do nothing
          if (editing) toast({ title: 'Order updated', description: 'The order has been updated successfully.' });
          else toast({ title: 'Order created', description: 'The order has been created successfully.' });
          nav.list();
        },
        onError: (err) =>
          toast({ title: editing ? 'Error updating order' : 'Error creating order', description: messageOf(err), variant: 'destructive' }),
      },
    );
  };

  const describedBy = (k: keyof Values) => (errors[k] ? `order-${k}-error` : undefined);

  return (
    <form onSubmit={onSubmit} noValidate className="flex max-w-2xl flex-col gap-4">
      <fieldset disabled={save.isPending} className="flex min-w-0 flex-col gap-4">
        <Field label="User ID" required htmlFor="order-user_id" error={errors.user_id} hint="A user's id, or guest.">
          <input
            id="order-user_id"
            className={inputCls}
            value={values.user_id}
            onChange={(e) => set('user_id', e.target.value)}
            required
            aria-invalid={Boolean(errors.user_id)}
            aria-describedby={describedBy('user_id')}
          />
        </Field>
        <Field label="Shipping address" required htmlFor="order-shipping_address" error={errors.shipping_address}>
          <textarea
            id="order-shipping_address"
            rows={4}
            className={inputCls}
            value={values.shipping_address}
            onChange={(e) => set('shipping_address', e.target.value)}
            required
            aria-invalid={Boolean(errors.shipping_address)}
            aria-describedby={describedBy('shipping_address')}
          />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Total amount ($)" required htmlFor="order-total_amount" error={errors.total_amount}>
            <input
              id="order-total_amount"
              type="number"
              inputMode="decimal"
              step="0.01"
              min="0"
              className={inputCls}
              value={values.total_amount}
              onChange={(e) => set('total_amount', e.target.value)}
              required
              aria-invalid={Boolean(errors.total_amount)}
              aria-describedby={describedBy('total_amount')}
            />
          </Field>
          <Field label="Status" htmlFor="order-status">
            <select id="order-status" className={`${inputCls} capitalize`} value={values.status} onChange={(e) => set('status', e.target.value as Status)}>
              {ORDER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {/* Decoy for bots: hidden from people and assistive technology. */}
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label htmlFor="order-website">Website</label>
          <input id="order-website" name="website" tabIndex={-1} autoComplete="off" value={website} onChange={(e) => setWebsite(e.target.value)} />
        </div>
        <p className="text-xs text-stone-600">
          <span className="text-red-700">*</span> Required
        </p>
        <div className="flex flex-wrap gap-2">
          <Button type="submit">{save.isPending ? 'Saving…' : editing ? 'Update Order' : 'Create Order'}</Button>
          <Button variant="ghost" onClick={nav.list}>
            Cancel
          </Button>
        </div>
      </fieldset>
    </form>
  );
}

export function OrderForm({ orderId, nav }: { orderId: string | null; nav: OrdersNav }) {
  const back = (
    <Button variant="ghost" onClick={nav.list}>
      <ArrowLeftIcon size={16} /> Back to orders
    </Button>
  );
  if (orderId === null) {
    return (
      <Panel title="Create Order" actions={back}>
        <FormBody order={null} nav={nav} />
      </Panel>
    );
  }
  return <EditOrder orderId={orderId} nav={nav} back={back} />;
}

function EditOrder({ orderId, nav, back }: { orderId: string; nav: OrdersNav; back: ReactNode }) {
  const { data, error, isPending, refetch } = useAdminOrder(orderId);
  return (
    <Panel title="Edit Order" actions={back}>
      <ListState isPending={isPending} error={error} onRetry={() => void refetch()} isEmpty={false} empty={null} loadingLabel="Loading order">
        {data && <FormBody order={data.order} nav={nav} />}
      </ListState>
    </Panel>
  );
}

