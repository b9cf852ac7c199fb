import '../lib/zod-config.js';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { REORDER_MESSAGES, ReorderPreview } from '../../shared/schemas/reorder-reminders.js';
import { formatCents } from '../../shared/money.js';
import { apiRequestWith } from '../lib/api-client.js';
import { errorMessage } from '../lib/error-message.js';
import { paths } from '../lib/paths.js';
import { addToCart } from '../cart/cart-store.js';
import { Alert } from '../ui/alert.js';
import { Button, buttonClasses } from '../ui/button.js';
import { Card } from '../ui/form-controls.js';
import { Container } from '../ui/container.js';
import { ProductImage } from '../ui/product-image.js';
import { Skeleton } from '../ui/skeleton.js';

const schema = () => Promise.resolve(ReorderPreview);

/** Puts the lines that can be bought now in this browser's cart, as one-time lines (merged with what it holds). */
function putInCart(preview: ReorderPreview): number {
  let added = 0;
  for (const l of preview.lines) {
    if (!l.available) continue;
    added += addToCart({
      product: { id: l.productId, name: l.name, priceCents: l.unitPriceCents, images: l.image ? [l.image] : [], variantId: l.variantId },
      quantity: l.quantity,
      inventory: l.inventory,
      size: l.size,
      color: l.color,
    });
  }
  return added;
}

/**
 * /reorder?token=…, the link of a reorder reminder e-mail (issue [7/8] item 4). Opening it changes
 * nothing: it shows what it would put in the cart, priced now, and the products that offer subscribe
 * and save. The button puts the lines in this browser's cart and opens the cart; the link works again
 * while it is valid. Nobody is signed in.
 */
export default function ReorderPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const url = `/api/reorder/${encodeURIComponent(token)}`;
  const preview = useQuery({
    queryKey: ['reorder', token],
    queryFn: () => apiRequestWith(url, schema),
    enabled: token !== '',
    retry: false,
  });
  const reorder = useMutation({
    mutationFn: () => apiRequestWith(url, schema, { method: 'POST' }),
    onSuccess: (data) => {
      putInCart(data);
      void navigate(paths.cart);
    },
    onError: () => undefined,
  });
  const data = preview.data;
  const available = data?.lines.filter((l) => l.available) ?? [];
  const totalCents = available.reduce((n, l) => n + l.unitPriceCents * l.quantity, 0);
  return (
    <Container narrow className="py-8 sm:py-12">
      <Card className="flex flex-col gap-4">
        <h1 className="text-2xl font-bold text-stone-900">Reorder</h1>
        {!token ? (
          <Alert variant="destructive" title="This link is missing its code. Use the link in the e-mail as it is." />
        ) : preview.isError ? (
          <>
            <Alert variant="destructive" title={errorMessage(preview.error, REORDER_MESSAGES.linkUnknown)} />
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
            <p className="text-stone-700">
              The same again as in your order #{data.orderNumber}, at today’s prices. Change quantities in the cart.
            </p>
            <ul className="divide-y divide-stone-200 border-y border-stone-200" aria-label="Items to reorder">
              {data.lines.map((l) => (
                <li key={`${l.variantId}|${l.size}|${l.color}`} className="flex items-start gap-3 py-3">
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
                    <p className="text-sm text-stone-600">Qty {l.quantity}</p>
                    {!l.available && <p className="text-sm font-medium text-red-700">Sold out right now: it will not be added</p>}
                    {l.subscribePercent !== null && (
                      <Link
                        to={paths.product(l.productId, l.variantId)}
                        className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
                      >
                        Subscribe and save {l.subscribePercent}%
                      </Link>
                    )}
                  </div>
                  <p className={`shrink-0 font-medium ${l.available ? 'text-stone-900' : 'text-stone-400 line-through'}`}>
                    {formatCents(l.unitPriceCents * l.quantity)}
                  </p>
                </li>
              ))}
            </ul>
            {available.length === 0 ? (
              <>
                <Alert variant="destructive" title={REORDER_MESSAGES.nothingLeft} />
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
                <p className="text-sm text-stone-600">
                  Prices are before shipping and tax. Nothing is ordered until you check out; items already in your cart stay there.
                </p>
                {reorder.isError && <Alert variant="destructive" title={errorMessage(reorder.error, REORDER_MESSAGES.linkUnknown)} />}
                <Button className="self-start" disabled={reorder.isPending} onClick={() => reorder.mutate()}>
                  {reorder.isPending ? 'Adding…' : 'Add to my cart'}
                </Button>
              </>
            )}
          </>
        )}
      </Card>
    </Container>
  );
}
