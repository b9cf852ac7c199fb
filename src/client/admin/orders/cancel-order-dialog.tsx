import '../../lib/zod-config.js';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { cancelOrderForm } from '../../../shared/schemas/admin-forms.js';
import type { OrderStockLine, ReturnLine } from '../../../shared/schemas/inventory.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { useOrderStockLines } from '../api/get-order-stock-lines.js';
import { ListState } from '../components/admin-ui.js';
import { useAdminOrder } from './order-api.js';
import { defaultReturnLines, hasShipped, ReturnLinesField } from './return-lines-field.js';

type CancelProps = {
  /** Who is e-mailed about the change, when known. */
  email?: string | null | undefined;
  busy: boolean;
  onConfirm: (returnLines: ReturnLine[]) => void;
  onClose: () => void;
};

function CancelForm({ lines, shipped, email, busy, onConfirm, onClose }: CancelProps & { lines: OrderStockLine[]; shipped: boolean }) {
  const [schema] = useState(() => cancelOrderForm(lines));
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(schema), defaultValues: { returnLines: defaultReturnLines(lines, shipped) } });
  return (
    <form className="flex flex-col gap-4" onSubmit={(e) => void handleSubmit((body) => onConfirm(body.returnLines ?? []))(e)} noValidate>
      <p className="text-stone-800">The order will be marked cancelled{email ? `, and ${email} will be e-mailed about it at once` : ''}.</p>
      <ReturnLinesField
        idPrefix="cancel"
        lines={lines}
        shipped={shipped}
        field={(i) => register(`returnLines.${i}.quantity`)}
        errorOf={(i) => errors.returnLines?.[i]?.quantity?.message}
      />
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Changing…' : email ? 'Change and e-mail' : 'Change status'}
        </Button>
      </div>
    </form>
  );
}

/**
 * Cancelling an order that took its units from stock: the status change's confirmation, with the
 * order's lines and how many units of each go back (every unit still out of an order not shipped,
 * none of a shipped one, unless the owner changes it).
 */
export function CancelOrderDialog({ orderId, ...props }: CancelProps & { orderId: string }) {
  const lines = useOrderStockLines(orderId);
  // The list's row does not say whether the parcel left: the order itself does.
  const order = useAdminOrder(orderId);
  const error = (lines.error && !lines.data ? lines.error : null) ?? (order.error && !order.data ? order.error : null);
  return (
    <Dialog open onClose={props.onClose} title="Change the order's status?">
      <ListState
        isPending={lines.isPending || order.isPending}
        error={error}
        onRetry={() => void Promise.all([lines.refetch(), order.refetch()])}
        loadingLabel="Loading the order's lines"
      >
        {lines.data && order.data && <CancelForm lines={lines.data} shipped={hasShipped(order.data.order)} {...props} />}
      </ListState>
    </Dialog>
  );
}
