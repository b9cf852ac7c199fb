import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { storedLineOptions, type LineOption } from '../../shared/line-options.js';

type StoredLine = { product_id: string; variant_id: string | null; variant_label: string | null };

/**
 * The option names and values of stored order lines (decision 0044). A line keeps its values as
 * `variant_label`; the names are the product's options now, used only while the variant still
 * has the values the line was sold with (shared/line-options.ts `storedLineOptions`). Two reads
 * for any number of lines; none when no line has options.
 */
export async function orderLineOptions(db: Kysely<Database>, lines: readonly StoredLine[]): Promise<(line: StoredLine) => LineOption[]> {
  const labelled = lines.filter((l) => l.variant_label && l.variant_id);
  if (labelled.length === 0) return (l) => storedLineOptions(l.variant_label ?? '', null);
  const variantIds = [...new Set(labelled.map((l) => l.variant_id!))];
  const productIds = [...new Set(labelled.map((l) => l.product_id))];
  const [variants, options] = await Promise.all([
    db.selectFrom('product_variants').select(['id', 'product_id', 'option1', 'option2', 'option3']).where('id', 'in', variantIds).execute(),
    db.selectFrom('product_options').select(['product_id', 'position', 'name']).where('product_id', 'in', productIds).execute(),
  ]);
  const names = new Map<string, string[]>();
  for (const o of options) {
    const list = names.get(o.product_id) ?? [];
    list[o.position - 1] = o.name;
    names.set(o.product_id, list);
  }
  const byId = new Map(variants.map((v) => [v.id, v]));
  return (l) => {
    const v = l.variant_id ? byId.get(l.variant_id) : undefined;
    const current =
      v && v.product_id === l.product_id
        ? {
            optionNames: Array.from({ length: 3 }, (_, i) => names.get(v.product_id)?.[i] ?? ''),
            values: [v.option1, v.option2, v.option3],
          }
        : null;
    return storedLineOptions(l.variant_label ?? '', current);
  };
}
