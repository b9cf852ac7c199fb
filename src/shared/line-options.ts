/*
 * What a line says of the version sold (decision 0044): the product's own option names and
 * values, "Scent: Lavender · Size: 32 oz", and nothing for a product without options. The cart,
 * checkout, confirmation, My Orders, the e-mails, the owner's order view and the packing slip all
 * word a line through here. Plain functions, no zod: any page may load them.
 */

/** One option of a line: its name ('' when no longer known) and the value sold. */
export type LineOption = { name: string; value: string };

/** Pairs a variant's option names with its values, leaving out unused options. */
export function lineOptions(optionNames: readonly string[], values: readonly string[]): LineOption[] {
  const out: LineOption[] = [];
  values.forEach((value, i) => {
    if (value) out.push({ name: optionNames[i]?.trim() ?? '', value });
  });
  return out;
}

/**
 * The options of an order line, from what the line kept (`variant_label`, its values joined by
 * ', ') and the catalogue as it is now. The names are the product's options when the variant still
 * has the values the line was sold with; otherwise the kept label alone, unnamed, so a renamed
 * or removed variant never makes an old order say what it did not sell.
 */
export function storedLineOptions(
  label: string,
  current: { optionNames: readonly string[]; values: readonly string[] } | null,
): LineOption[] {
  if (!label) return [];
  if (current) {
    const options = lineOptions(current.optionNames, current.values);
    if (options.length > 0 && options.every((o) => o.name) && options.map((o) => o.value).join(', ') === label) return options;
  }
  return [{ name: '', value: label }];
}

/** "Scent: Lavender · Size: 32 oz" ('' for a product without options). */
export function lineOptionsText(options: readonly LineOption[]): string {
  return options.map((o) => (o.name ? `${o.name}: ${o.value}` : o.value)).join(' · ');
}

/** A line on one row (e-mails, the packing slip): "Cleaner — Scent: Lavender · Size: 32 oz", or the name alone. */
export function lineNameWithOptions(productName: string, options: readonly LineOption[]): string {
  const text = lineOptionsText(options);
  return text ? `${productName} — ${text}` : productName;
}

/**
 * A line's heading and its options line: the product's name over "Scent: Lavender · Size: 32 oz".
 * Lines that know only their title (older data) keep it whole, with no options line.
 */
export function lineHeading(line: { name: string; productName?: string; options?: readonly LineOption[] }): {
  title: string;
  options: string;
} {
  const options = lineOptionsText(line.options ?? []);
  if (!options || !line.productName) return { title: line.name, options: '' };
  return { title: line.productName, options };
}
