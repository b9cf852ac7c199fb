import type { OrderView } from '../../../shared/schemas/orders.js';

/** The shipping address as lines of text (free text from the admin form, or checkout's object). */
export function addressLines(address: OrderView['shippingAddress']): string[] {
  if (!address) return [];
  if (typeof address === 'string') return address.split('\n').map((l) => l.trim()).filter(Boolean);
  const cityLine = [address.city, [address.state, address.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [address.name, address.address, cityLine, address.country, address.email].filter((l): l is string => Boolean(l));
}

export function addressText(address: OrderView['shippingAddress']): string {
  return addressLines(address).join('\n');
}
