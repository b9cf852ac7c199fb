import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { formatCents } from '../../../shared/money.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { adminGet, adminSend, messageOf, logUnexpected } from '../api/admin-api.js';
import { OkResponse, ShippingOptionResponse, ShippingOptionsResponse, type AdminShippingOption } from '../api/admin-schemas.js';
import {
  centsToText,
  ConfirmDialog,
  DataTable,
  dollarsToCents,
  Field,
  inputCls,
  ListState,
  Panel,
  Switch,
  FormFooter,
  RowActions,
} from '../components/admin-ui.js';

const KEY = ['admin', 'shipping-options'] as const;

type Values = { name: string; price: string; estimatedDays: string; minimumOrder: string; enabled: boolean; description: string };
type Errors = Partial<Record<keyof Values, string>>;

function validate(v: Values): Errors {
  const e: Errors = {};
  if (!v.name.trim()) e.name = 'Name is required';
  const price = dollarsToCents(v.price);
  if (v.price.trim() === '') e.price = 'Price is required';
  else if (price === null || price < 0) e.price = 'Price cannot be negative';
  if (v.minimumOrder.trim() !== '') {
    const m = dollarsToCents(v.minimumOrder);
    if (m === null || m < 0) e.minimumOrder = 'Minimum order cannot be negative';
  }
  return e;
}

function ShippingDialog({ option, onClose }: { option: AdminShippingOption | null; onClose: () => void }) {
  const qc = useQueryClient();
  const [values, setValues] = useState<Values>({
    name: option?.name ?? '',
    price: centsToText(option?.priceCents),
    estimatedDays: option?.estimatedDays ?? '5-7',
    minimumOrder: centsToText(option?.minimumOrderCents),
    enabled: option?.enabled ?? true,
    description: option?.description ?? '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const set = <K extends keyof Values>(k: K, v: Values[K]) => setValues((prev) => ({ ...prev, [k]: v }));
  const save = useMutation({
    onError: logUnexpected,
    mutationFn: (body: unknown) =>
      option
        ? adminSend('PUT', `/api/admin/shipping-options/${encodeURIComponent(option.id)}`, ShippingOptionResponse, body)
        : adminSend('POST', '/api/admin/shipping-options', ShippingOptionResponse, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(
      {
        name: values.name.trim(),
        description: values.description.trim() || null,
        priceCents: dollarsToCents(values.price) ?? 0,
        estimatedDays: values.estimatedDays.trim() || '5-7',
        enabled: values.enabled,
        minimumOrderCents: dollarsToCents(values.minimumOrder),
      },
      {
        onSuccess: () => {
          toast({ title: option ? 'Shipping option updated successfully.' : 'Shipping option created successfully.' });
          onClose();
        },
        onError: (err) =>
          toast({
            title: option ? 'Failed to update shipping option' : 'Failed to create shipping option',
            description: messageOf(err),
            variant: 'destructive',
          }),
      },
    );
  };
  const aria = (k: keyof Values) => ({
    'aria-invalid': Boolean(errors[k]),
    'aria-describedby': errors[k] ? `shipping-${k}-error` : undefined,
  });

  return (
    <Dialog open onClose={onClose} title={option ? 'Edit Shipping Option' : 'Add Shipping Option'}>
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={save.isPending} className="flex min-w-0 flex-col gap-4">
          <Field label="Name" required htmlFor="shipping-name" error={errors.name}>
            <input
              id="shipping-name"
              className={inputCls}
              value={values.name}
              onChange={(e) => set('name', e.target.value)}
              {...aria('name')}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label="Price ($)" required htmlFor="shipping-price" error={errors.price}>
              <input
                id="shipping-price"
                type="number"
                min="0"
                step="0.01"
                inputMode="decimal"
                className={inputCls}
                value={values.price}
                onChange={(e) => set('price', e.target.value)}
                {...aria('price')}
              />
            </Field>
            <Field label="Estimated days" required htmlFor="shipping-estimatedDays" hint="Defaults to 5-7.">
              <input
                id="shipping-estimatedDays"
                className={inputCls}
                value={values.estimatedDays}
                onChange={(e) => set('estimatedDays', e.target.value)}
              />
            </Field>
            <Field label="Minimum order ($)" htmlFor="shipping-minimumOrder" error={errors.minimumOrder}>
              <input
                id="shipping-minimumOrder"
                type="number"
                min="0"
                step="0.01"
                inputMode="decimal"
                className={inputCls}
                value={values.minimumOrder}
                onChange={(e) => set('minimumOrder', e.target.value)}
                {...aria('minimumOrder')}
              />
            </Field>
          </div>
          <Field label="Description" htmlFor="shipping-description">
            <textarea
              id="shipping-description"
              rows={2}
              className={inputCls}
              value={values.description}
              onChange={(e) => set('description', e.target.value)}
            />
          </Field>
          <label className="inline-flex items-center gap-2 text-sm font-medium text-stone-900">
            <input
              type="checkbox"
              className="h-4 w-4 accent-brand-600"
              checked={values.enabled}
              onChange={(e) => set('enabled', e.target.checked)}
            />
            Enabled
          </label>
          <FormFooter onCancel={onClose} saving={save.isPending} saveLabel="Save Shipping Option" />
        </fieldset>
      </form>
    </Dialog>
  );
}

export default function ShippingTab() {
  const qc = useQueryClient();
  const { data, error, isPending, isFetching, refetch } = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => adminGet('/api/admin/shipping-options', ShippingOptionsResponse, undefined, signal),
    staleTime: 0,
  });
  const [editing, setEditing] = useState<AdminShippingOption | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<AdminShippingOption | null>(null);
  const toggle = useMutation({
    onError: logUnexpected,
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      adminSend('PATCH', `/api/admin/shipping-options/${encodeURIComponent(id)}/enabled`, ShippingOptionResponse, { enabled }),
    onSettled: () => qc.invalidateQueries({ queryKey: KEY }),
  });
  const del = useMutation({
    onError: logUnexpected,
    mutationFn: (id: string) => adminSend('DELETE', `/api/admin/shipping-options/${encodeURIComponent(id)}`, OkResponse),
    onSettled: () => qc.invalidateQueries({ queryKey: KEY }),
  });

  return (
    <Panel title="Shipping Options" actions={<Button onClick={() => setEditing('new')}>Add Shipping Option</Button>}>
      <ListState
        isPending={isPending}
        error={error && !data ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading shipping options"
        isEmpty={data?.items.length === 0}
        empty={<p>No shipping options yet.</p>}
      >
        {data && (
          <DataTable
            caption="Shipping options"
            rows={data.items}
            rowKey={(o) => o.id}
            busy={isFetching}
            columns={[
              {
                header: 'Name',
                primary: true,
                className: 'md:min-w-36',
                cell: (o) => (
                  <>
                    <span className="font-medium text-stone-900">{o.name}</span>
                    {o.description && <span className="block text-xs text-stone-600">{o.description}</span>}
                  </>
                ),
              },
              { header: 'Price', numeric: true, cell: (o) => formatCents(o.priceCents) },
              { header: 'Estimated days', className: 'whitespace-nowrap', cell: (o) => o.estimatedDays },
              {
                header: 'Minimum order',
                numeric: true,
                cell: (o) => (o.minimumOrderCents === null ? '—' : formatCents(o.minimumOrderCents)),
              },
              {
                header: 'Enabled',
                cell: (o) => {
                  const pending = toggle.isPending && toggle.variables.id === o.id;
                  return (
                    <Switch
                      label={`Enabled: ${o.name}`}
                      checked={pending ? toggle.variables.enabled : o.enabled}
                      disabled={pending}
                      onChange={(enabled) =>
                        toggle.mutate(
                          { id: o.id, enabled },
                          {
                            onSuccess: () => toast({ title: 'Shipping option updated successfully.' }),
                            onError: (err) =>
                              toast({ title: 'Failed to update shipping option', description: messageOf(err), variant: 'destructive' }),
                          },
                        )
                      }
                    />
                  );
                },
              },
            ]}
            actions={(o) => <RowActions name={o.name} onEdit={() => setEditing(o)} onDelete={() => setToDelete(o)} />}
          />
        )}
      </ListState>
      {editing !== null && <ShippingDialog option={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        open={toDelete !== null}
        message={`Are you sure you want to delete the shipping option ${toDelete?.name ?? ''}?`}
        busy={del.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          del.mutate(toDelete.id, {
            onSuccess: () => toast({ title: 'Shipping option deleted successfully.' }),
            onError: (err) => toast({ title: 'Failed to delete shipping option', description: messageOf(err), variant: 'destructive' }),
            onSettled: () => setToDelete(null),
          });
        }}
      />
    </Panel>
  );
}
