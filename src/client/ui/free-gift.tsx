import { COUPON_MESSAGES } from '../../shared/coupons.js';
import { toast } from './toast.js';

export function FreeGiftBadge() {
  return (
    <span className="inline-flex w-fit items-center rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-800">
      Free Gift
    </span>
  );
}

/** A coupon's free product stays at quantity 1. */
export function refuseFreeGiftIncrease(): void {
  toast({ title: 'Free Product Limit', description: COUPON_MESSAGES.freeProductLimit, variant: 'destructive' });
}
