import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatCents } from '../../shared/money.js';
import { errorMessage } from '../lib/error-message.js';
import { paths } from '../lib/paths.js';
import { addToCart } from '../cart/cart-store.js';
import { Alert } from '../ui/alert.js';
import { Button, buttonClasses } from '../ui/button.js';
import { Card } from '../ui/form-controls.js';
import { Container } from '../ui/container.js';
import { ProductImage } from '../ui/product-image.js';
import { Skeleton } from '../ui/skeleton.js';

/**
 * What the two e-mail links that fill a cart share (issue [7/8]): the checkout recovery's "Back to
 * my cart" (restore-cart-page.tsx) and the reorder reminder's "Reorder" (reorder-page.tsx). Each
 * page reads its link (changing nothing), lists the lines priced now, and with one button puts the
 * ones that can be bought in this browser's cart.
 */
export type LinkLine = {
  productId: string;
  variantId: string;
  name: string;
  variantLabel: string;
  image: string | null;
  quantity: number;
  unitPriceCents: number;
  available: boolean;
  inventory: number;
  size: string;
  color: string;
  everyWeeks?: number | null;
};

/** Puts the lines that can be bought now in this browser's cart, beside what it holds; returns the units added. */
export function putLinesInCart(lines: readonly LinkLine[]): number {
  let added = 0;
  for (const l of lines) {
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
  return added;
}

/** The page's frame: its heading, then a missing code, the link's refusal, a loading outline, or `children`. */
export function LinkCartFrame({
  title,
  token,
  error,
  unknownText,
  loaded,
  children,
}: {
  title: string;
  token: string;
  error: unknown;
  unknownText: string;
  loaded: boolean;
  children: ReactNode;
}) {
  return (
    <Container narrow className="py-8 sm:py-12">
      <Card className="flex flex-col gap-4">
        <h1 className="text-2xl font-bold text-stone-900">{title}</h1>
        {!token ? (
          <Alert variant="destructive" title="This link is missing its code. Use the link in the e-mail as it is." />
        ) : error ? (
          <>
            <Alert variant="destructive" title={errorMessage(error, unknownText)} />
            <Link to={paths.products} className={buttonClasses('outline', 'md', 'self-start')}>
              Continue shopping
            </Link>
          </>
        ) : !loaded ? (
          <div className="flex flex-col gap-3" aria-busy="true" aria-label="Loading">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-11 w-48" />
          </div>
        ) : (
          children
        )}
      </Card>
    </Container>
  );
}

/** The link's lines: picture, name, variant, quantity and price now; one that cannot be bought is said so and struck through. */
export function LinkCartLines<L extends LinkLine>({
  lines,
  label,
  unavailableText,
  extra,
}: {
  lines: readonly L[];
  label: string;
  unavailableText: string;
  extra?: (line: L) => ReactNode;
}) {
  return (
    <ul className="divide-y divide-stone-200 border-y border-stone-200" aria-label={label}>
      {lines.map((l) => (
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
            {!l.available && <p className="text-sm font-medium text-red-700">{unavailableText}</p>}
            {extra?.(l)}
          </div>
          <p className={`shrink-0 font-medium ${l.available ? 'text-stone-900' : 'text-stone-400 line-through'}`}>
            {formatCents(l.unitPriceCents * l.quantity)}
          </p>
        </li>
      ))}
    </ul>
  );
}

/**
 * Under the lines: when nothing can be bought, the sentence and a way to the shop; otherwise the
 * total of what can, `children` (a coupon's note), the promise that nothing is ordered yet, and the button.
 */
export function LinkCartAction({
  lines,
  nothingLeftText,
  buttonLabel,
  pendingLabel,
  pending,
  error,
  errorFallback,
  onPress,
  children,
}: {
  lines: readonly LinkLine[];
  nothingLeftText: string;
  buttonLabel: string;
  pendingLabel: string;
  pending: boolean;
  error: unknown;
  errorFallback: string;
  onPress: () => void;
  children?: ReactNode;
}) {
  const available = lines.filter((l) => l.available);
  if (available.length === 0)
    return (
      <>
        <Alert variant="destructive" title={nothingLeftText} />
        <Link to={paths.products} className={buttonClasses('primary', 'md', 'self-start')}>
          See what is in stock
        </Link>
      </>
    );
  const totalCents = available.reduce((n, l) => n + l.unitPriceCents * l.quantity, 0);
  return (
    <>
      <p className="flex justify-between font-semibold text-stone-900">
        <span>Total today</span>
        <span>{formatCents(totalCents)}</span>
      </p>
      {children}
      <p className="text-sm text-stone-600">
        Prices are today’s, before shipping and tax. Nothing is ordered until you check out; items already in your cart stay there.
      </p>
      {Boolean(error) && <Alert variant="destructive" title={errorMessage(error, errorFallback)} />}
      <Button className="self-start" disabled={pending} onClick={onPress}>
        {pending ? pendingLabel : buttonLabel}
      </Button>
    </>
  );
}
