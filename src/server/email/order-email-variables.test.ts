import { describe, expect, it } from 'vitest';
import { defaultEmailTemplates } from './default-templates.js';
import { renderTemplate, type RenderedEmail } from './render.js';
import {
  orderConfirmationVariables,
  shippingNotificationVariables,
  statusUpdateVariables,
  storedAddressLines,
  type EmailVariables,
} from './order-email-variables.js';

const ADDRESS = { name: 'Jo Green', address: '12 Green Lane', city: 'Portland', state: 'OR', zip: '97201', country: 'US' };
const ORDER = {
  id: 'order_1700000000000_abcdefghi',
  order_number: 'CDEFGHI1',
  subtotal_cents: 6998,
  discount_cents: 700,
  shipping_cents: 0,
  tax_cents: 504,
  total_cents: 6802,
  shipping_address: JSON.stringify(ADDRESS),
  shipstation_tracking_number: '<b>1Z&"</b>',
  shipping_carrier: 'ups',
};
const ITEMS = [
  { product_name: 'Cloth & <Co>', quantity: 2, price_cents: 3499, is_free_gift: 0 },
  { product_name: 'Bamboo Brush', quantity: 1, price_cents: 0, is_free_gift: 1 },
];
const ESCAPED_NUMBER = '&lt;b&gt;1Z&amp;&quot;&lt;/b&gt;';
const UPS_LINK = 'https://www.ups.com/track?tracknum=%3Cb%3E1Z%26%22%3C%2Fb%3E';

const builtIn = (id: string) => defaultEmailTemplates.find((t) => t.id === id)!;
const render = (template: { subject: string; html: string; text: string | null }, v: EmailVariables): RenderedEmail =>
  renderTemplate(template, v.variables, { ...v.variables, ...v.textVariables });
/** Handlebars writes `=` as `&#x3D;` inside attributes; a browser reads both the same. */
const hrefs = (html: string) => [...html.replace(/&#x3D;/g, '=').matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
/** The status e-mail's link to a guest's own order page (no account to send them to). */
const GUEST_ORDER_LINK = `http://localhost:3000/order-confirmation?orderId=${'order_1700000000000_abcdefghi'}`;

describe('the built-in order e-mails, drawn from data', () => {
  it('use no triple braces', () => {
    for (const t of defaultEmailTemplates) expect(`${t.subject}${t.html}${t.text}`).not.toContain('{{{');
  });

  it('order confirmation: each line with its quantity and total, the free gift, the totals and the address', () => {
    const mail = render(builtIn('order-confirmation'), orderConfirmationVariables(ORDER, ITEMS, 'http://shop.test'));
    expect(mail.subject).toBe('Order Confirmation - #CDEFGHI1');
    expect(mail.html).toMatch(/<td>Cloth &amp; &lt;Co&gt; &times; 2<\/td><td align="right">\$69\.98<\/td>/);
    expect(mail.html).toMatch(/<td>Bamboo Brush \(Free Gift\) &times; 1<\/td><td align="right">\$0\.00<\/td>/);
    expect(mail.html).not.toContain('<Co>');
    expect(mail.html).toContain('Jo Green<br>12 Green Lane<br>Portland, OR 97201<br>US</p>');
    for (const total of ['$69.98', '$7.00', 'FREE', '$5.04', '$68.02']) expect(mail.html).toContain(total);
    expect(mail.text).toContain(
      'Items:\nCloth & <Co> x 2  $69.98\nBamboo Brush x 1  $0.00\n\nSubtotal: $69.98\nDiscount: $7.00\nShipping: FREE\nTax: $5.04\nTotal: $68.02\n',
    );
    expect(mail.text).toContain('Shipping to:\nJo Green\n12 Green Lane\nPortland, OR 97201\nUS\n\nWe will send you another e-mail');
  });

  it('status update: the carrier, the tracking number escaped, the link to the carrier, the address', () => {
    const mail = render(builtIn('order-status-update'), statusUpdateVariables(ORDER, 'shipped', undefined));
    expect(mail.subject).toBe('Order #CDEFGHI1 is now Shipped');
    expect(mail.html).toContain(`Carrier: <strong>UPS</strong><br>Tracking number: <strong>${ESCAPED_NUMBER}</strong>`);
    expect(mail.html).not.toContain('<b>1Z');
    expect(mail.html).toContain('Track your package on the UPS website</a>');
    expect(hrefs(mail.html)).toEqual([UPS_LINK, GUEST_ORDER_LINK]);
    expect(mail.html).toContain('Hi Jo Green,');
    expect(mail.html).toContain('Jo Green<br>12 Green Lane<br>Portland, OR 97201<br>US</p>');
    expect(mail.text).toContain(
      `is now: Shipped.\nOrder reference: ECBCDEFGHI\n\nCarrier: UPS\nTracking number: <b>1Z&"</b>\nTrack your package: ${UPS_LINK}\n\nShipping address:\nJo Green\n12 Green Lane\nPortland, OR 97201\nUS\n\n`,
    );
  });

  it('status update without a label: the order reference, never called a tracking number; no carrier, no link', () => {
    const unlabelled = { ...ORDER, shipstation_tracking_number: null, shipping_carrier: null };
    for (const status of ['pending', 'processing', 'shipped', 'delivered']) {
      const mail = render(builtIn('order-status-update'), statusUpdateVariables(unlabelled, status, { full_name: 'Account Name' }));
      expect(mail.html).toContain('Hi Account Name,');
      expect(mail.html).toContain('Order reference: <strong>ECBCDEFGHI</strong>');
      expect(mail.text).toContain('Order reference: ECBCDEFGHI\n');
      for (const body of [mail.html, mail.text ?? '']) {
        expect(body).not.toContain('Tracking number');
        expect(body).not.toContain('Carrier:');
      }
      expect(hrefs(mail.html)).toEqual([GUEST_ORDER_LINK]);
    }
  });

  it('status update of a cancelled order: no tracking, even with a label', () => {
    const mail = render(builtIn('order-status-update'), statusUpdateVariables(ORDER, 'cancelled', undefined));
    expect(mail.html).toContain('Order reference: <strong>ECBCDEFGHI</strong>');
    expect(`${mail.html}${mail.text}`).not.toContain('Tracking number');
    expect(hrefs(mail.html)).toEqual([GUEST_ORDER_LINK]);
  });

  it('shipping notification: carrier, tracking number escaped, link, the ship-to lines', () => {
    const v = shippingNotificationVariables({
      orderNumber: 'CDEFGHI1',
      shipTo: ADDRESS,
      trackingNumber: ORDER.shipstation_tracking_number,
      carrierCode: 'ups',
    });
    const mail = render(builtIn('shipping-notification'), v);
    expect(mail.subject).toBe('Your order #CDEFGHI1 has shipped');
    expect(mail.html).toContain('Carrier: <strong>UPS</strong>');
    expect(mail.html).toContain(`<strong style="font-size:18px;letter-spacing:0.5px;">${ESCAPED_NUMBER}</strong>`);
    expect(mail.html).not.toContain('<b>1Z');
    expect(mail.html).toContain('Track your package on the UPS website</a>');
    expect(hrefs(mail.html)).toEqual([UPS_LINK]);
    expect(mail.html).toContain('Jo Green<br>12 Green Lane<br>Portland, OR 97201</p>');
    expect(mail.text).toContain(
      `Carrier: UPS\nTracking number: <b>1Z&"</b>\nTrack your package: ${UPS_LINK}\nShipping to:\nJo Green\n12 Green Lane\nPortland, OR 97201\n\n`,
    );
  });
});

describe('templates the owner edited before the data variables', () => {
  it('still get their pre-rendered pieces, escaped as before', () => {
    const old = {
      subject: 'Order {{orderNumber}}',
      html: '<div>{{{itemsList}}}</div><div>{{{trackingSection}}}</div><p style="white-space:pre-line">{{shippingAddress}}</p><p>{{trackingNumber}}</p>',
      text: '{{{itemsList}}}\n{{{trackingSection}}}\n{{shippingAddress}}',
    };
    const confirmation = render(old, orderConfirmationVariables(ORDER, ITEMS, 'http://shop.test'));
    expect(confirmation.html).toContain('<tr><td>Cloth &amp; &lt;Co&gt; &times; 2</td><td align="right">$69.98</td></tr>');
    expect(confirmation.html).toContain('<tr><td>Bamboo Brush (Free Gift) &times; 1</td><td align="right">$0.00</td></tr>');
    expect(confirmation.html).toContain('Jo Green\n12 Green Lane\nPortland, OR 97201\nUS');
    expect(confirmation.text).toContain('Cloth & <Co> x 2  $69.98\nBamboo Brush x 1  $0.00');

    const status = render(old, statusUpdateVariables(ORDER, 'shipped', undefined));
    expect(status.html).toContain(
      `<p>Carrier: <strong>UPS</strong><br>Tracking number: <strong>${ESCAPED_NUMBER}</strong><br><a href="${UPS_LINK}">Track your package on the UPS website</a></p>`,
    );
    expect(status.html).toContain(`<p>${ESCAPED_NUMBER}</p>`);
    expect(status.html).not.toContain('<b>1Z');
    expect(status.text).toContain(`Carrier: UPS\nTracking number: <b>1Z&"</b>\nTrack your package: ${UPS_LINK}`);

    const shipping = render(
      { subject: 's', html: '{{carrier}} {{trackingNumber}} <a href="{{trackingUrl}}">track</a> {{shippingAddress}}', text: null },
      shippingNotificationVariables({
        orderNumber: 'X',
        shipTo: ADDRESS,
        trackingNumber: ORDER.shipstation_tracking_number,
        carrierCode: 'ups',
      }),
    );
    expect(shipping.html).toContain(`UPS ${ESCAPED_NUMBER}`);
    expect(hrefs(shipping.html)).toEqual([UPS_LINK]);
  });
});

describe('storedAddressLines', () => {
  it("reads checkout's address object and the owner's free text", () => {
    expect(storedAddressLines(JSON.stringify(ADDRESS))).toEqual(['Jo Green', '12 Green Lane', 'Portland, OR 97201', 'US']);
    expect(storedAddressLines(JSON.stringify('5 Phone Rd, Dover, DE 19901'))).toEqual(['5 Phone Rd, Dover, DE 19901']);
    expect(storedAddressLines(null)).toEqual([]);
  });
});
