import '../lib/zod-config.js';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { RECOVERY_MESSAGES, RestorePreview } from '../../shared/schemas/recovery.js';
import { formatCents } from '../../shared/money.js';
import { apiRequestWith } from '../lib/api-client.js';
import { errorMessage } from '../lib/error-message.js';
import { paths } from '../lib/paths.js';
import { addToCart, applyCoupon, getCart } from '../cart/cart-store.js';
import { Alert } from '../ui/alert.js';
import { Button, buttonClasses } from '../ui/button.js';
import { Card } from '../ui/form-controls.js';
import { Container } from '../ui/container.js';
import { ProductImage } from '../ui/product-image.js';
import { Skeleton } from '../ui/skeleton.js';

const schema = () => Promise.resolve(RestorePreview);

/** Puts the lines still to be had in this browser's cart (merged with what it holds), and the e-mail's coupon. */
function putBack(preview: RestorePreview): number {
  let added = 0;
  for (const l of preview.lines) {
    if (!l.available) continue;
    added += addToCart({
      product: { id: l.productId, name: l.name, priceCents: l.unitPriceCents, images: l.image ? [l.image] : [], variantId: l.variantId },
      quantity: l.quantity,
      inventory: l.inventory,
      size: l.size,
      color: l.color,
      ...(l.everyWeeks ? { everyWeeks: l.everyWeeks } : {}),
    });
  }
  // The cart's quote checks the code and draws its discount (or says why it no longer applies).
  if (preview.couponCode && getCart().items.length > 0 && !getCart().appliedCouponCode) applyCoupon(preview.couponCode, 0, null);
  return added;
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
  const available = data?.lines.filter((l) => l.available) ?? [];
  const totalCents = available.reduce((n, l) => n + l.unitPriceCents * l.quantity, 0);
  return (
    <Container narrow className="py-8 sm:py-12">
      <Card className="flex flex-col gap-4">
        <h1 className="text-2xl font-bold text-stone-900">Your saved cart</h1>
        {!token ? (
          <Alert variant="destructive" title="This link is missing its code. Use the link in the e-mail as it is." />
        ) : preview.isError ? (
          <>
            <Alert variant="destructive" title={errorMessage(preview.error, RECOVERY_MESSAGES.linkUnknown)} />
            <Link to={paths.products} className={buttonClasses('outline', 'md', 'self-start')}>
              Continue shopping
            </Link>
          </>
        ) : !data ? (
          <div className="flex flex-col gap-3" aria-busy="true" aria-label="Loading">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-11 w-48" />
          </div>
        ) : (
          <>
            <ul className="divide-y divide-stone-200 border-y border-stone-200" aria-label="Items in the saved cart">
              {data.lines.map((l) => (
                <li key={`${l.variantId}|${l.size}|${l.color}|${l.everyWeeks ?? ''}`} className="flex items-start gap-3 py-3">
                  <ProductImage
                    src={l.image ?? undefined}
                    alt={l.name}
                    width={64}
                    height={64}
                    sizes="64px"
                    className="h-16 w-16 shrink-0 rounded-md object-cover"
                  />
                  <div className="min-w-0 flex-1">
                    <p className="font-medium text-stone-900">{l.name}</p>
                    {l.variantLabel && <p className="text-sm text-stone-600">{l.variantLabel}</p>}
                    <p className="text-sm text-stone-600">
                      Qty {l.quantity}
                      {l.everyWeeks ? ` · every ${l.everyWeeks} weeks` : ''}
                    </p>
                    {!l.available && <p className="text-sm font-medium text-red-700">Sold out since: it will not be put back</p>}
                  </div>
                  <p className={`shrink-0 font-medium ${l.available ? 'text-stone-900' : 'text-stone-400 line-through'}`}>
                    {formatCents(l.unitPriceCents * l.quantity)}
                  </p>
                </li>
              ))}
            </ul>
            {available.length === 0 ? (
              <>
                <Alert variant="destructive" title={RECOVERY_MESSAGES.nothingLeft} />
                <Link to={paths.products} className={buttonClasses('primary', 'md', 'self-start')}>
                  See what is in stock
                </Link>
              </>
            ) : (
              <>
                <p className="flex justify-between font-semibold text-stone-900">
                  <span>Total today</span>
                  <span>{formatCents(totalCents)}</span>
                </p>
                {data.couponCode && (
                  <p className="rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-brand-900">
                    Your code <strong className="font-mono">{data.couponCode}</strong> is put on the cart with it.
                  </p>
                )}
                <p className="text-sm text-stone-600">
                  Prices are today’s, before shipping and tax. Nothing is ordered until you check out; items already in your cart stay
                  there.
                </p>
                {restore.isError && <Alert variant="destructive" title={errorMessage(restore.error, RECOVERY_MESSAGES.linkUsed)} />}
                <Button className="self-start" disabled={restore.isPending} onClick={() => restore.mutate()}>
                  {restore.isPending ? 'Putting it back…' : 'Put these back in my cart'}
                </Button>
              </>
            )}
          </>
        )}
      </Card>
    </Container>
  );
}
