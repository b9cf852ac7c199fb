/**
 * The carriers whose own tracking pages the shop links to, keyed by the carrier code ShipStation
 * answers when a label is bought (v2 `carrier_code`, v1 `carrierCode`). Several codes name one
 * carrier (USPS labels come through Stamps.com or Endicia, UPS and FedEx through ShipStation's own
 * accounts). The customer's order pages and the shipping e-mail read this one table; a code not
 * in it shows its tracking number without a link (never a search engine).
 */
type Carrier = { id: 'usps' | 'ups' | 'fedex' | 'dhl'; name: string; url: (trackingNumber: string) => string };

const q = encodeURIComponent;

const CARRIERS: Record<Carrier['id'], Carrier> = {
  usps: { id: 'usps', name: 'USPS', url: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${q(n)}` },
  ups: { id: 'ups', name: 'UPS', url: (n) => `https://www.ups.com/track?tracknum=${q(n)}` },
  fedex: { id: 'fedex', name: 'FedEx', url: (n) => `https://www.fedex.com/fedextrack/?trknbr=${q(n)}` },
  dhl: { id: 'dhl', name: 'DHL', url: (n) => `https://www.dhl.com/us-en/home/tracking/tracking-parcel.html?submit=1&tracking-id=${q(n)}` },
};

/** ShipStation's carrier codes (v1 and v2) for the carriers above. */
const CODES: Record<string, Carrier['id']> = {
  usps: 'usps',
  stamps_com: 'usps',
  endicia: 'usps',
  express_1: 'usps',
  ups: 'ups',
  ups_walleted: 'ups',
  fedex: 'fedex',
  fedex_walleted: 'fedex',
  dhl: 'dhl',
  dhl_express: 'dhl',
  dhl_express_worldwide: 'dhl',
  dhl_express_walleted: 'dhl',
  dhl_ecommerce: 'dhl',
  dhl_global_mail: 'dhl',
};

/** The known carrier a code names (case and spacing ignored), or null. */
export function carrierOf(code: string | null | undefined): Carrier | null {
  if (!code) return null;
  const id = CODES[code.trim().toLowerCase()];
  return id ? CARRIERS[id] : null;
}

/** What to call a carrier code on the customer's pages: the carrier's name, else the code as given, else null. */
export function carrierName(code: string | null | undefined): string | null {
  if (!code?.trim()) return null;
  return carrierOf(code)?.name ?? code.trim();
}

/** The carrier's own tracking page for this number, or null when the carrier or the number is unknown. */
export function trackingUrl(code: string | null | undefined, trackingNumber: string | null | undefined): string | null {
  const number = trackingNumber?.trim();
  const carrier = carrierOf(code);
  return carrier && number ? carrier.url(number) : null;
}
