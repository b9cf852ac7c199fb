import { useState } from 'react';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';

/**
 * "Notify the customer": whether a status change e-mails them (the server honours it and notes the
 * choice on the timeline). Says who would be written to, or that nobody can be.
 */
export function NotifyCustomer({
  id,
  email,
  checked,
  onChange,
}: {
  id: string;
  email: string | null | undefined;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  if (!email)
    return (
      <p className="text-sm text-stone-700" data-testid="notify-nobody">
        This order has no customer e-mail: nobody is e-mailed about the change.
      </p>
    );
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 h-4 w-4 shrink-0 accent-brand-600"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id} className="min-w-0 text-sm font-medium text-stone-900">
        Notify the customer
      </label>
    </div>
  );
}

/** What the confirmation says about who hears of the change. */
export function whoHears(status: string, email: string | null | undefined, notify: boolean): string {
  if (!email) return `The order will be marked ${status}.`;
  return notify
    ? `The order will be marked ${status}, and ${email} will be e-mailed about it at once.`
    : `The order will be marked ${status}. ${email} will not be e-mailed; the order's timeline notes that.`;
}

/** A status change's confirmation: what it becomes, and whether the customer hears about it. */
export function StatusChangeDialog({
  status,
  email,
  busy,
  onConfirm,
  onClose,
}: {
  status: string | null;
  email: string | null | undefined;
  busy: boolean;
  onConfirm: (notify: boolean) => void;
  onClose: () => void;
}) {
  const [notify, setNotify] = useState(true);
  const emailed = notify && Boolean(email);
  return (
    <Dialog open={status !== null} onClose={onClose} title="Change the order's status?">
      <div className="flex flex-col gap-4">
        <p className="text-stone-800">{whoHears(status ?? '', email, notify)}</p>
        <NotifyCustomer id="status-notify" email={email} checked={notify} onChange={setNotify} />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button onClick={() => onConfirm(notify)} disabled={busy}>
            {busy ? 'Changing…' : emailed ? 'Change and e-mail' : 'Change without e-mail'}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
