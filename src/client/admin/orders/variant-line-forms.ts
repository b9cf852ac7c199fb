import '../../lib/zod-config.js';
import { z } from 'zod';
import { AdminOrderForm } from '../../../shared/schemas/admin/orders.js';
import type { OrderStockLine, ReturnLine } from '../../../shared/schemas/inventory.js';
import { defaultVariantIdOf } from '../../../shared/variants.js';

/*
 * The back office's order forms with variants (decision 0036). The shared form schemas
 * (shared/schemas/admin/orders.ts) know an order's lines by product: the Create Order form's lines
 * leave the variant out of the body, and the refund and cancel forms match a return line to the
 * order's lines by product id, which an order holding two variants of one product breaks. These
 * wrappers run the shared schemas unchanged (their rules and words) and carry each line's variant
 * through by its position, which the shared schemas keep. A line of a product's first variant
 * (`var_<productId>`, every product without options) names none, as before variants: absent means it.
 */

/** The variant a body names: none for the product's first, which an absent one means. */
function variantOf(productId: string, variantId: string | undefined): { variantId: string } | Record<string, never> {
  return variantId && variantId !== defaultVariantIdOf(productId) ? { variantId } : {};
}

/** Runs `schema` on `value`; its issues become the caller's, at the same paths. */
function parseInto<S extends z.ZodType>(schema: S, value: unknown, ctx: z.RefinementCtx): z.output<S> | typeof z.NEVER {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  return z.NEVER;
}

type SharedOrderForm = z.input<typeof AdminOrderForm>;
/** A product line of a new order: the product, the variant chosen ('' none: the product's first) and the quantity as typed. */
export type OrderLineValues = { productId: string; variantId: string; quantity: string };
export type OwnerOrderForm = Omit<SharedOrderForm, 'lines'> & { lines?: OrderLineValues[] };

/** The owner's order form (create and edit), each product line naming its variant. */
export const OwnerOrderForm = z.custom<OwnerOrderForm>().transform((values, ctx) => {
  const body = parseInto(AdminOrderForm, values, ctx);
  if (body === z.NEVER || !body.lines) return body;
  return {
    ...body,
    lines: body.lines.map((l, i) => ({ ...l, ...variantOf(l.productId, values.lines?.[i]?.variantId) })),
  };
});

/** An order line's key for the shared return-lines rules: its position, since two lines may share a product. */
const keyOf = (i: number) => `line-${i}`;

/**
 * A refund or cancel form (`formFor`, e.g. `(lines) => refundForm(left, lines)`) whose return lines
 * go back to their own variant: the form's `returnLines[i]` is the order's `lines[i]`.
 */
export function returnByVariant<
  F extends { returnLines: { productId: string; quantity: string }[] },
  B extends { returnLines?: ReturnLine[] | undefined },
>(lines: readonly OrderStockLine[], formFor: (keyed: OrderStockLine[]) => z.ZodType<B, F>) {
  const inner = formFor(lines.map((l, i) => ({ ...l, productId: keyOf(i) })));
  return z.custom<F>().transform((values, ctx): B => {
    const body = parseInto(inner, { ...values, returnLines: values.returnLines.map((l, i) => ({ ...l, productId: keyOf(i) })) }, ctx);
    if (body === z.NEVER) return body;
    return {
      ...body,
      returnLines: body.returnLines?.map((l, i): ReturnLine => {
        const line = lines[i]!;
        return { productId: line.productId, ...variantOf(line.productId, line.variantId), quantity: l.quantity };
      }),
    };
  });
}
