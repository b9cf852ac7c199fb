import '../lib/zod-config.js';
import { useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { RECOVERY_MESSAGES, RestorePreview } from '../../shared/schemas/recovery.js';
import { apiRequestWith } from '../lib/api-client.js';
import { paths } from '../lib/paths.js';
import { applyCoupon, getCart } from '../cart/cart-store.js';
import { LinkCartAction, LinkCartFrame, LinkCartLines, putLinesInCart } from './link-cart.js';

const schema = () => Promise.resolve(RestorePreview);

/** Puts the lines still to be had in this browser's cart (beside what it holds), and the e-mail's coupon. */
function putBack(preview: RestorePreview): void {
  putLinesInCart(preview.lines);
  // The cart's quote checks the code and draws its discount (or says why it no longer applies).
  if (preview.couponCode && getCart().items.length > 0 && !getCart().appliedCouponCode) applyCoupon(preview.couponCode, 0, null);
}

/**
 * /cart/restore?token=…, the link of a checkout recovery e-mail (issue [7/8] item 3). Opening it
 * changes nothing: it shows the cart it would put back, priced now. The button takes the link (it
 * works once) and puts the lines in this browser's cart, then opens the cart. Nobody is signed in.
 */
export default function RestoreCartPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const url = `/api/cart-restore/${encodeURIComponent(token)}`;
  const preview = useQuery({
    queryKey: ['cart-restore', token],
    queryFn: () => apiRequestWith(url, schema),
    enabled: token !== '',
    retry: false,
  });
  const restore = useMutation({
    mutationFn: () => apiRequestWith(url, schema, { method: 'POST' }),
    onSuccess: (data) => {
      putBack(data);
      void navigate(`${paths.cart}?restored=1`);
    },
    onError: () => undefined,
  });
  const data = preview.data;
  return (
    <LinkCartFrame
      title="Your saved cart"
      token={token}
      error={preview.error}
      unknownText={RECOVERY_MESSAGES.linkUnknown}
      loaded={data !== undefined}
    >
      {data && (
        <>
          <LinkCartLines lines={data.lines} label="Items in the saved cart" unavailableText="Sold out since: it will not be put back" />
          <LinkCartAction
            lines={data.lines}
            nothingLeftText={RECOVERY_MESSAGES.nothingLeft}
            buttonLabel="Put these back in my cart"
            pendingLabel="Putting it back…"
            pending={restore.isPending}
            error={restore.error}
            errorFallback={RECOVERY_MESSAGES.linkUsed}
            onPress={() => restore.mutate()}
          >
            {data.couponCode && (
              <p className="rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-brand-900">
                Your code <strong className="font-mono">{data.couponCode}</strong> is put on the cart with it.
              </p>
            )}
          </LinkCartAction>
        </>
      )}
    </LinkCartFrame>
  );
}
