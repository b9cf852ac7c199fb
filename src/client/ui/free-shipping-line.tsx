import { freeShippingFraction, freeShippingProgress, freeShippingText } from '../../shared/free-shipping.js';
import { freeShippingMinimumFromSettings } from '../../shared/shop-facts.js';
import { useSettings } from '../lib/get-settings.js';

/**
 * "Add $12.34 more for free shipping" with a bar of how far the cart is, "You've got free
 * shipping", or (cart empty or not priced yet) the shop's free-shipping rule. The minimum is the
 * one the server states from the enabled shipping options; `subtotalCents` is the server's quote
 * (null until there is one). Nothing when no option ships free. Always the same height, so the
 * line changing as the cart is priced moves nothing around it.
 */
export function FreeShippingLine({ subtotalCents, className = '' }: { subtotalCents: number | null; className?: string }) {
  const { data: settings } = useSettings();
  const progress = freeShippingProgress(freeShippingMinimumFromSettings(settings), subtotalCents);
  const text = freeShippingText(progress);
  if (!text) return null;
  const percent = Math.round(freeShippingFraction(progress) * 100);
  return (
    <div className={`flex flex-col gap-2 rounded-md bg-brand-50 px-3 py-2 text-sm text-brand-900 ${className}`} data-testid="free-shipping">
      <p aria-live="polite" className={progress.state === 'reached' ? 'font-semibold' : ''}>
        {text}
      </p>
      <div className="h-1.5 overflow-hidden rounded-full bg-brand-100" aria-hidden="true">
        <div
          className="h-full rounded-full bg-brand-600 transition-[width] motion-reduce:transition-none"
          style={{ width: `${percent}%` }}
        />
      </div>
    </div>
  );
}
