import { useId, useState } from 'react';
import type { SubscriptionAddressInput, SubscriptionView } from '../../../shared/subscriptions.js';
import { Dialog } from '../../ui/dialog.js';
import { AddressEditor } from '../dashboard/account-info.js';
import { SUBSCRIPTION_UI_TEXTS as T } from './subscription-texts.js';

/**
 * "Change address": where this subscription ships from its next delivery not yet ordered, or,
 * ticked, every subscription of the customer and the account's saved shipping address too.
 */
export function SubscriptionAddressDialog({
  subscription,
  open,
  onClose,
  onSave,
}: {
  subscription: SubscriptionView;
  open: boolean;
  onClose: () => void;
  onSave: (body: SubscriptionAddressInput) => Promise<unknown>;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={T.addressTitle} className="sm:max-w-xl">
      {open && <AddressForm subscription={subscription} onSave={onSave} onDone={onClose} />}
    </Dialog>
  );
}

function AddressForm({
  subscription,
  onSave,
  onDone,
}: {
  subscription: SubscriptionView;
  onSave: (body: SubscriptionAddressInput) => Promise<unknown>;
  onDone: () => void;
}) {
  const id = useId();
  const [everywhere, setEverywhere] = useState(false);
  return (
    <AddressEditor
      initial={subscription.address}
      texts={{ saved: T.addressSaved, failed: T.addressFailed }}
      onSave={(address) => onSave({ address, everywhere })}
      onDone={onDone}
    >
      <label htmlFor={`${id}-everywhere`} className="flex items-start gap-2 text-sm text-stone-800">
        <input
          id={`${id}-everywhere`}
          type="checkbox"
          className="mt-0.5 h-4 w-4 accent-brand-600"
          checked={everywhere}
          onChange={(e) => setEverywhere(e.target.checked)}
        />
        {T.addressEverywhere}
      </label>
    </AddressEditor>
  );
}
