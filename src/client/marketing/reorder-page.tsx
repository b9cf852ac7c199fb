import '../lib/zod-config.js';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { REORDER_MESSAGES, ReorderPreview } from '../../shared/schemas/reorder-reminders.js';
import { apiRequestWith } from '../lib/api-client.js';
import { paths } from '../lib/paths.js';
import { LinkCartAction, LinkCartFrame, LinkCartLines, putLinesInCart } from './link-cart.js';

const schema = () => Promise.resolve(ReorderPreview);

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
      // One-time lines, as bought.
      putLinesInCart(data.lines.map((l) => ({ ...l, everyWeeks: null })));
      void navigate(paths.cart);
    },
    onError: () => undefined,
  });
  const data = preview.data;
  return (
    <LinkCartFrame
      title="Reorder"
      token={token}
      error={preview.error}
      unknownText={REORDER_MESSAGES.linkUnknown}
      loaded={data !== undefined}
    >
      {data && (
        <>
          <p className="text-stone-700">
            The same again as in your order #{data.orderNumber}, at today’s prices. Change quantities in the cart.
          </p>
          <LinkCartLines
            lines={data.lines}
            label="Items to reorder"
            unavailableText="Sold out right now: it will not be added"
            extra={(l) =>
              l.subscribePercent !== null && (
                <Link
                  to={paths.product(l.productId, l.variantId)}
                  className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
                >
                  Subscribe and save {l.subscribePercent}%
                </Link>
              )
            }
          />
          <LinkCartAction
            lines={data.lines}
            nothingLeftText={REORDER_MESSAGES.nothingLeft}
            buttonLabel="Add to my cart"
            pendingLabel="Adding…"
            pending={reorder.isPending}
            error={reorder.error}
            errorFallback={REORDER_MESSAGES.linkUnknown}
            onPress={() => reorder.mutate()}
          />
        </>
      )}
    </LinkCartFrame>
  );
}
