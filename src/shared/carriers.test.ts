import { describe, expect, it } from 'vitest';
import { carrierName, carrierOf, trackingUrl } from './carriers.js';

describe('carrier tracking pages', () => {
  it('links each carrier to its own tracking page, by any of its ShipStation codes', () => {
    expect(trackingUrl('usps', '9400TRACK1')).toBe('https://tools.usps.com/go/TrackConfirmAction?tLabels=9400TRACK1');
    expect(trackingUrl('stamps_com', '9400TRACK1')).toBe('https://tools.usps.com/go/TrackConfirmAction?tLabels=9400TRACK1');
    expect(trackingUrl('endicia', '9400TRACK1')).toBe('https://tools.usps.com/go/TrackConfirmAction?tLabels=9400TRACK1');
    expect(trackingUrl('ups', '1Z999AA10123456784')).toBe('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    expect(trackingUrl('fedex', '794612345678')).toBe('https://www.fedex.com/fedextrack/?trknbr=794612345678');
    expect(trackingUrl('dhl_express', '1234567890')).toBe(
      'https://www.dhl.com/us-en/home/tracking/tracking-parcel.html?submit=1&tracking-id=1234567890',
    );
    expect(trackingUrl(' UPS ', '1Z1')).toBe('https://www.ups.com/track?tracknum=1Z1');
  });

  it('escapes the number into the address', () => {
    expect(trackingUrl('ups', '1Z 9&x=<b>')).toBe('https://www.ups.com/track?tracknum=1Z%209%26x%3D%3Cb%3E');
  });

  it('has no link without a known carrier or a number, and never a search engine', () => {
    expect(trackingUrl(null, '9400TRACK1')).toBeNull();
    expect(trackingUrl('ontrac', '9400TRACK1')).toBeNull();
    expect(trackingUrl('usps', null)).toBeNull();
    expect(trackingUrl('usps', '   ')).toBeNull();
    for (const code of ['usps', 'ups', 'fedex', 'dhl']) expect(trackingUrl(code, 'X1')).not.toMatch(/google|bing|search\?/);
  });

  it('names the carrier for people: its name when known, the code otherwise', () => {
    expect(carrierName('stamps_com')).toBe('USPS');
    expect(carrierName('fedex_walleted')).toBe('FedEx');
    expect(carrierName('ontrac')).toBe('ontrac');
    expect(carrierName(null)).toBeNull();
    expect(carrierName('')).toBeNull();
    expect(carrierOf('dhl')?.id).toBe('dhl');
    expect(carrierOf('unknown')).toBeNull();
  });
});
