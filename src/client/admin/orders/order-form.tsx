import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { isPaidOrder, ORDER_STATUSES } from '../../../shared/schemas/orders.js';
import { formatCents } from '../../../shared/money.js';
import { SHIPS_TO_TEXT, US_STATES } from '../../../shared/schemas/checkout.js';
import { Button } from '../../ui/button.js';
import { ArrowLeftIcon } from '../../ui/icons.js';
import { toast } from '../../ui/toast.js';
import { useBotGuard } from '../../lib/use-bot-guard.js';
import { messageOf } from '../api/admin-api.js';
import { DollarInput, Field, fieldAria, inputCls, ListState, Panel } from '../components/admin-ui.js';
import { CustomerPicker, GUEST, type PickedCustomer } from './customer-picker.js';
import { useAdminOrder, useSaveOrder, type Status } from './order-api.js';
import { LabelAddressNotice } from './label-tracking.js';
import type { OrdersNav } from './orders-tab.js';
import type { OrderView } from '../../../shared/schemas/orders.js';
import { NotifyCustomer } from './notify-customer.js';
import { lineKey, OrderLinesField, type LineProduct } from './order-lines-field.js';
import { OwnerOrderForm } from './variant-line-forms.js';

const ADDRESS_FIELDS = [
  { key: 'name', label: 'Name', required: true, autoComplete: 'name' },
  { key: 'address', label: 'Street', required: true, autoComplete: 'street-address' },
  { key: 'city', label: 'City', required: true, autoComplete: 'address-level2' },
  { key: 'state', label: 'State', required: true, autoComplete: 'address-level1' },
  { key: 'zip', label: 'ZIP', required: true, autoComplete: 'postal-code' },
  { key: 'country', label: 'Country', required: true, autoComplete: 'country' },
] as const;
/** The only country the checkout ships to (its ShippingAddressInput); the form shows it, fixed. */
const SHIP_COUNTRY = 'US';
const ADDRESS_HINTS: Partial<Record<AddressKey, string>> = {
  state: SHIPS_TO_TEXT,
  zip: 'Five digits, e.g. 12345 or 12345-6789.',
  country: 'The shop ships within the US only.',
};
type AddressKey = (typeof ADDRESS_FIELDS)[number]['key'];
type Address = Record<AddressKey, string>;

/** Statuses that say the parcel left: on an unpaid order, the form warns before saving them. */
const SHIPPED_LIKE: Status[] = ['shipped', 'delivered', 'completed'];

function startAddress(a: OrderView['shippingAddress']): Address {
  const o = a && typeof a === 'object' ? a : {};
  return {
    name: o.name ?? '',
    address: o.address ?? '',
    city: o.city ?? '',
    state: o.state ?? '',
    zip: o.zip ?? '',
    // The checkout ships within the US only: an older order's other spelling ("USA") is saved as US.
    country: SHIP_COUNTRY,
  };
}

function FormBody({ order, nav }: { order: OrderView | null; nav: OrdersNav }) {
  const editing = order !== null;
  const { attach: attachBotGuard, check: checkBotGuard } = useBotGuard('adminOrder');
  const save = useSaveOrder(order?.id ?? null);
  // Orders with items keep the money they were charged: their total is not editable.
  const totalEditable = !order || order.items.length === 0;
  const textAddress = order && typeof order.shippingAddress === 'string' ? order.shippingAddress : null;
  const [customer, setCustomer] = useState<PickedCustomer>(() =>
    !order || order.userId === 'guest' ? GUEST : { id: order.userId, label: order.email ? `${order.email}` : order.userId },
  );
  const {
    register,
    handleSubmit,
    setValue,
    control,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(OwnerOrderForm),
    defaultValues: {
      user_id: customer.id,
      textAddress,
      shipping_address: startAddress(order?.shippingAddress ?? null),
      total_amount: totalEditable ? (order ? (order.totalCents / 100).toFixed(2) : '') : null,
      status: order?.status ?? 'pending',
      note: '',
      elapsedMs: 0,
      website: '',
      lines: [],
      discountCents: '',
      shippingCents: '',
      email: '',
      notify: true,
    },
  });
  const lineArray = useFieldArray({ control, name: 'lines' });
  // What each line shows (title, SKU, price, stock), as the product search found it, by line key (its variant).
  const [lineProducts, setLineProducts] = useState(() => new Map<string, LineProduct>());
  const lines = useWatch({ control, name: 'lines' }) ?? [];
  const discount = useWatch({ control, name: 'discountCents' });
  const shipping = useWatch({ control, name: 'shippingCents' });
  const notify = useWatch({ control, name: 'notify' }) ?? true;
  const withLines = !editing && lines.length > 0;
  // One line per variant: the same variant picked again adds a unit.
  const addLine = (p: LineProduct) => {
    setLineProducts((m) => new Map(m).set(lineKey(p), p));
    const at = lines.findIndex((l) => lineKey(l) === lineKey(p));
    if (at >= 0) setValue(`lines.${at}.quantity`, String((Number(lines[at]!.quantity) || 0) + 1));
    else lineArray.append({ productId: p.productId, variantId: p.variantId, quantity: '1' });
  };
  const address = useWatch({ control, name: 'shipping_address' });
  const status = useWatch({ control, name: 'status' });
  // A free-text address (older owner-entered orders) is kept as it is until the fields are filled in.
  const addressTouched = ADDRESS_FIELDS.some((f) => f.key !== 'country' && address[f.key].trim() !== '');
  const keepText = textAddress !== null && !addressTouched;
  const unpaid = !order || !isPaidOrder(order.paymentStatus);
  const warnUnpaidShipped = unpaid && SHIPPED_LIKE.includes(status) && status !== order?.status;
  // Who hears of a status change made here: the order's e-mail, else the chosen account's.
  const statusChanged = editing && status !== order.status;
  const customerEmail = order?.email ?? (customer.id !== GUEST.id ? customer.label : null);

  const submit = (body: z.output<typeof OwnerOrderForm>) =>
    save.mutate(body, {
      onSuccess: (res) => {
        if ('ignored' in res) return; // the bot guard tripped: silently do nothing
        if (editing) toast({ title: 'Order updated', description: 'The order has been updated successfully.' });
        else toast({ title: 'Order created', description: 'The order has been created successfully.' });
        nav.list();
      },
      onError: (err) =>
        toast({ title: editing ? 'Error updating order' : 'Error creating order', description: messageOf(err), variant: 'destructive' }),
    });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    setValue('elapsedMs', checkBotGuard(e.currentTarget).elapsedMs);
    void handleSubmit(submit)(e);
  };

  const fieldError = (k: AddressKey) => errors.shipping_address?.[k]?.message;

  return (
    <form ref={attachBotGuard} onSubmit={onSubmit} noValidate className="flex max-w-2xl flex-col gap-4">
      <fieldset disabled={save.isPending} className="flex min-w-0 flex-col gap-4">
        <Field
          label="Customer"
          required
          htmlFor="order-customer-search"
          error={errors.user_id?.message}
          hint="Search by name or e-mail, or leave it a guest order."
        >
          <CustomerPicker
            value={customer}
            onChange={(c) => {
              setCustomer(c);
              setValue('user_id', c.id);
            }}
            error={errors.user_id?.message}
          />
        </Field>
        {!editing && customer.id === GUEST.id && (
          <Field
            label="Customer e-mail"
            htmlFor="order-email"
            error={errors.email?.message}
            hint="For a guest: the order's e-mails (confirmation, payment link, status) go here."
          >
            <input
              id="order-email"
              type="email"
              className={inputCls}
              autoComplete="email"
              maxLength={254}
              {...register('email')}
              {...fieldAria(errors.email?.message, 'order-email-error')}
            />
          </Field>
        )}
        {!editing && (
          <OrderLinesField
            lines={lines}
            products={lineProducts}
            register={register}
            errors={errors}
            discount={discount}
            shipping={shipping}
            onAdd={addLine}
            onRemove={(i) => lineArray.remove(i)}
          />
        )}
        <fieldset className="flex min-w-0 flex-col gap-3 rounded-md border border-stone-200 p-3">
          <legend className="px-1 text-sm font-medium text-stone-900">Shipping address</legend>
          {textAddress !== null && (
            <p className="rounded-md bg-stone-50 p-2 text-sm text-stone-700">
              Saved as text: <span className="whitespace-pre-line">{textAddress}</span>
              <span className="mt-1 block text-xs">
                Fill in the fields to replace it with an address a shipping label can use; left empty, the text is kept.
              </span>
            </p>
          )}
          <div className="grid gap-3 sm:grid-cols-2">
            {ADDRESS_FIELDS.map((f) => (
              <div key={f.key} className={f.key === 'address' || f.key === 'name' ? 'sm:col-span-2' : ''}>
                <Field
                  label={f.label}
                  required={f.required && !keepText}
                  htmlFor={`order-${f.key}`}
                  error={fieldError(f.key)}
                  {...(ADDRESS_HINTS[f.key] ? { hint: ADDRESS_HINTS[f.key] } : {})}
                >
                  {f.key === 'state' ? (
                    // The checkout's list: the states the shop ships to, by their codes.
                    <select
                      id="order-state"
                      className={inputCls}
                      autoComplete={f.autoComplete}
                      {...register('shipping_address.state')}
                      {...fieldAria(fieldError(f.key), 'order-state-error')}
                    >
                      <option value="">Choose a state</option>
                      {US_STATES.map(([code, name]) => (
                        <option key={code} value={code}>
                          {name}
                        </option>
                      ))}
                    </select>
                  ) : f.key === 'country' ? (
                    <input id="order-country" className={`${inputCls} bg-stone-50`} readOnly {...register('shipping_address.country')} />
                  ) : (
                    <input
                      id={`order-${f.key}`}
                      className={inputCls}
                      autoComplete={f.autoComplete}
                      inputMode={f.key === 'zip' ? 'numeric' : undefined}
                      {...register(`shipping_address.${f.key}`)}
                      {...fieldAria(fieldError(f.key), `order-${f.key}-error`)}
                    />
                  )}
                </Field>
              </div>
            ))}
          </div>
          <LabelAddressNotice order={order} address={address} />
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          {withLines ? (
            <div className="flex flex-col gap-1">
              <p className="text-sm font-medium text-stone-900">Total</p>
              <p className="text-sm text-stone-800">From the products above, priced by the shop when you create the order.</p>
            </div>
          ) : totalEditable ? (
            <Field
              label="Total amount ($)"
              required
              htmlFor="order-total_amount"
              error={errors.total_amount?.message}
              hint={editing ? 'Split 85% subtotal, 8% tax, 7% shipping.' : 'Without products: split 85% subtotal, 8% tax, 7% shipping.'}
            >
              <DollarInput
                id="order-total_amount"
                {...register('total_amount')}
                required
                {...fieldAria(errors.total_amount?.message, 'order-total_amount-error')}
              />
            </Field>
          ) : (
            <div className="flex flex-col gap-1">
              <p className="text-sm font-medium text-stone-900">Total</p>
              <p className="text-sm text-stone-800" data-testid="order-total-fixed">
                {formatCents(order.totalCents)} <span className="text-stone-600">— from its items; an edit never changes it.</span>
              </p>
            </div>
          )}
          <Field label="Status" htmlFor="order-status">
            <select id="order-status" className={`${inputCls} capitalize`} {...register('status')}>
              {/* Editing: only the moves the server allows this order now (its one table); a new order may start anywhere. */}
              {ORDER_STATUSES.filter((s) => !order?.allowedStatuses || s === order.status || order.allowedStatuses.includes(s)).map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {statusChanged && (
          <NotifyCustomer id="order-notify" email={customerEmail} checked={notify} onChange={(v) => setValue('notify', v)} />
        )}
        {warnUnpaidShipped && (
          <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
            {order?.paymentStatus === 'refunded'
              ? `This order was refunded in full. Setting it to ${status} by hand is allowed, but its payment has gone back to the customer.`
              : `This order is not paid yet. Setting it to ${status} by hand is allowed, but no payment has arrived for it.`}
          </p>
        )}
        <Field label="Note (added to the order's timeline)" htmlFor="order-note">
          <textarea id="order-note" rows={2} maxLength={2000} className={inputCls} {...register('note')} />
        </Field>
        {/* Decoy for bots: hidden from people and assistive technology. */}
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label htmlFor="order-website">Website</label>
          <input id="order-website" tabIndex={-1} autoComplete="off" {...register('website')} />
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
      <ListState isPending={isPending} error={error} onRetry={() => void refetch()} loadingLabel="Loading order">
        {data && <FormBody order={data.order} nav={nav} />}
      </ListState>
    </Panel>
  );
}
