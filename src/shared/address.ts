/** A postal address as orders, accounts and the checkout keep it; any part may be missing. */
type AddressParts = {
  name?: string | null | undefined;
  address?: string | null | undefined;
  city?: string | null | undefined;
  state?: string | null | undefined;
  zip?: string | null | undefined;
  country?: string | null | undefined;
  email?: string | null | undefined;
};

type FormatAddressOptions = {
  /** The country line (default true). */
  country?: boolean;
  /** The e-mail line an admin-entered order may carry (default false). */
  email?: boolean;
  /** Trim each line of a free-text address (the back office's view; default false). */
  trimLines?: boolean;
};

/** "Springfield, IL 62704": the city, then state and ZIP; missing parts left out. */
function cityLine(address: AddressParts): string {
  return [address.city, [address.state, address.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
}

/**
 * The address as display lines: name, street, city line, country; empty lines left out. An
 * address the owner typed in as free text is split into its lines.
 */
export function formatAddress(address: AddressParts | string | null | undefined, options: FormatAddressOptions = {}): string[] {
  if (!address) return [];
  if (typeof address === 'string') {
    return options.trimLines
      ? address
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
      : address.split(/\r?\n/).filter(Boolean);
  }
  const lines = [address.name, address.address, cityLine(address)];
  if (options.country ?? true) lines.push(address.country);
  if (options.email) lines.push(address.email);
  return lines.filter((l): l is string => Boolean(l));
}
