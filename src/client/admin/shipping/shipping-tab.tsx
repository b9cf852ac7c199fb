import '../../lib/zod-config.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatCents } from '../../../shared/money.js';
import { ShippingOptionForm } from '../../../shared/schemas/admin/shipping.js';
import { ShippingOptionInput } from '../../../shared/schemas/admin/shipping.js';
import { maxLengths } from '../../../shared/schemas/limits.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { adminGet, adminSend, messageOf, logUnexpected } from '../api/admin-api.js';
import { OkResponse, ShippingOptionResponse, ShippingOptionsResponse, type AdminShippingOption } from '../api/admin-schemas.js';
import {
  centsToText,
  ConfirmDialog,
  DataTable,
  DollarInput,
  Field,
  fieldAria,
  FormFooter,
  inputCls,
  ListState,
  Panel,
  RowActions,
  Switch,
} from '../components/admin-ui.js';
import { UnplacedErrors } from '../components/form-errors.js';

const KEY = ['admin', 'shipping-options'] as const;
const MAX = maxLengths(ShippingOptionInput);

function ShippingDialog({ option, onClose }: { option: AdminShippingOption | null; onClose: () => void }) {
  const qc = useQueryClient();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(ShippingOptionForm),
    defaultValues: {
      name: option?.name ?? '',
      priceCents: centsToText(option?.priceCents),
      estimatedDays: option?.estimatedDays ?? '',
      minimumOrderCents: centsToText(option?.minimumOrderCents),
      enabled: option?.enabled ?? true,
      description: option?.description ?? '',
    },
  });
  const save = useMutation({
    onError: logUnexpected,
    mutationFn: (body: unknown) =>
      option
        ? adminSend('PUT', `/api/admin/shipping-options/${encodeURIComponent(option.id)}`, ShippingOptionResponse, body)
        : adminSend('POST', '/api/admin/shipping-options', ShippingOptionResponse, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });

  const submit = (body: z.output<typeof ShippingOptionForm>) =>
    save.mutate(body, {
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
    });
  const aria = (k: keyof typeof errors, id: string) => fieldAria(errors[k]?.message, `shipping-${id}-error`);

  return (
    <Dialog open onClose={onClose} title={option ? 'Edit Shipping Option' : 'Add Shipping Option'}>
      <form onSubmit={(e) => void handleSubmit(submit)(e)} noValidate>
        <fieldset disabled={save.isPending} className="flex min-w-0 flex-col gap-4">
          <Field label="Name" required htmlFor="shipping-name" error={errors.name?.message}>
            <input id="shipping-name" className={inputCls} maxLength={MAX.name} {...register('name')} {...aria('name', 'name')} />
          </Field>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label="Price ($)" required htmlFor="shipping-price" error={errors.priceCents?.message}>
              <DollarInput id="shipping-price" {...register('priceCents')} {...aria('priceCents', 'price')} />
            </Field>
            <Field
              label="Estimated days"
              htmlFor="shipping-estimatedDays"
              hint="Optional: left empty, it is 5-7."
              error={errors.estimatedDays?.message}
            >
              <input
                id="shipping-estimatedDays"
                className={inputCls}
                maxLength={MAX.estimatedDays}
                placeholder="5-7"
                {...register('estimatedDays')}
                {...aria('estimatedDays', 'estimatedDays')}
              />
            </Field>
            <Field label="Minimum order ($)" htmlFor="shipping-minimumOrder" error={errors.minimumOrderCents?.message}>
              <DollarInput id="shipping-minimumOrder" {...register('minimumOrderCents')} {...aria('minimumOrderCents', 'minimumOrder')} />
            </Field>
          </div>
          <Field label="Description" htmlFor="shipping-description" error={errors.description?.message}>
            <textarea
              id="shipping-description"
              rows={2}
              className={inputCls}
              maxLength={MAX.description}
              {...register('description')}
              {...aria('description', 'description')}
            />
          </Field>
          <label className="inline-flex items-center gap-2 text-sm font-medium text-stone-900">
            <input type="checkbox" className="h-4 w-4 accent-brand-600" {...register('enabled')} />
            Enabled
          </label>
          <UnplacedErrors
            id="shipping-form-errors"
            errors={errors}
            placed={['name', 'priceCents', 'estimatedDays', 'minimumOrderCents', 'description']}
          />
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
