import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testDialect, type TestApp } from '../test/harness.js';
import { TestClient } from '../test/http-client.js';
import { DEMO_ADMIN } from '../db/seed/demo-accounts.js';
import { noteShopChange } from '../http/shop-changes.js';
import { computeTotals } from '../../shared/pricing.js';
import * as truthful from '../db/migrations/0013-truthful-content.js';

type Faq = { id: string; question: string; answer: string };
type ShippingOption = {
  id: string;
  name: string;
  description: string | null;
  priceCents: number;
  estimatedDays: string;
  enabled: boolean;
  minimumOrderCents: number | null;
};

const html = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
const initialData = (body: string) =>
  JSON.parse(/<script id="__INITIAL_DATA__" type="application\/json">(.*?)<\/script>/s.exec(body)![1]!) as {
    key: unknown[];
    data: unknown;
  }[];
const description = (body: string) => /<meta name="description" content="([^"]*)" \/>/.exec(body)![1]!.replace(/&amp;/g, '&');

describe(`truthful content on ${testDialect()}`, () => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp();
    admin = new TestClient(t.app);
    await admin.signIn(DEMO_ADMIN.email, DEMO_ADMIN.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  const faqs = async () => (await t.app.inject({ method: 'GET', url: '/api/faqs' })).json().items as Faq[];
  const answer = async (question: RegExp) => (await faqs()).find((f) => question.test(f.question))!.answer;
  const options = async () => (await admin.get('/api/admin/shipping-options')).json().items as ShippingOption[];
  const saveOption = async (o: ShippingOption, change: Partial<ShippingOption>) => {
    const { id, ...body } = { ...o, ...change };
    const res = await admin.request('PUT', `/api/admin/shipping-options/${id}`, body);
    expect(res.statusCode, res.body).toBe(200);
  };

  it('the seeded hero has no video: the home page shows its picture and embeds nothing', async () => {
    const { settings } = (await t.app.inject({ method: 'GET', url: '/api/settings' })).json();
    expect(settings.hero_video_url).toBe('');
    expect(settings.homepage_hero_image).toBe('/images/hero.svg');
    const home = await html(t, '/');
    for (const text of ['dQw4w9WgXcQ', 'youtube-nocookie', '<iframe', 'Play video']) expect(home.body).not.toContain(text);
  });

  it('the FAQ and the site description say what the shipping options and the tax rule do, and follow the owner’s changes', async () => {
    // As seeded: Free Shipping from $50.00; Standard $5.99 is the cheapest paid option.
    expect(await answer(/shipping cost/)).toBe(
      'Standard Shipping is $5.99 (5-7 business days), Expedited Shipping is $12.99 (2-3 business days) and Overnight Shipping is $24.99 (Next business day). Orders with a subtotal of $50.00 or more can choose Free Shipping (free, 7-10 business days).',
    );
    const tax = await answer(/sales tax/);
    expect(tax).toBe(
      'Yes. Sales tax of 8% is charged on your order subtotal minus any discount, plus shipping, and is shown at checkout before you pay. For example, a $40.00 order with a $4.00 discount and $5.99 shipping pays $3.36 tax (8% of $41.99).',
    );
    // The example is what checkout charges: tax on subtotal − discount + shipping.
    const checkout = computeTotals({
      lines: [{ priceCents: 4000, quantity: 1 }],
      coupon: { discountType: 'fixed', discountValue: 400 },
      shippingOptions: [{ id: 'standard', priceCents: 599, enabled: true, minimumOrderCents: null }],
    });
    expect(checkout.taxCents).toBe(336);
    const faqPage = await html(t, '/faq');
    expect(faqPage.body).toContain('pays $3.36 tax (8% of $41.99)');
    expect(faqPage.body).not.toContain('{{');
    const home = await html(t, '/');
    expect(description(home.body)).toMatch(/ Free shipping on orders with a subtotal of \$50\.00 or more\.$/);
    const settings = (await t.app.inject({ method: 'GET', url: '/api/settings' })).json().settings;
    expect(settings.free_shipping_minimum_cents).toBe('5000');

    // The owner raises the free-shipping minimum and the standard rate: the kept pages are drawn again.
    const before = await options();
    await saveOption(
      before.find((o) => o.id === 'free')!,
      { minimumOrderCents: 7500 },
    );
    await saveOption(
      before.find((o) => o.id === 'standard')!,
      { priceCents: 650 },
    );
    expect(await answer(/shipping cost/)).toContain('Standard Shipping is $6.50 (5-7 business days)');
    expect(await answer(/shipping cost/)).toContain('Orders with a subtotal of $75.00 or more can choose Free Shipping');
    expect(await answer(/sales tax/)).toContain('$6.50 shipping pays $3.40 tax (8% of $42.50)');
    expect(description((await html(t, '/')).body)).toMatch(/ Free shipping on orders with a subtotal of \$75\.00 or more\.$/);
    expect(description((await html(t, '/about')).body)).not.toContain('$50.00');
    const faqAfter = await html(t, '/faq');
    expect(faqAfter.body).toContain('Orders with a subtotal of $75.00 or more can choose Free Shipping');
    expect(faqAfter.body).toContain('pays $3.40 tax (8% of $42.50)');

    // Nothing ships free any more: the description promises nothing, the FAQ lists what is left.
    const patch = await admin.request('PATCH', '/api/admin/shipping-options/free/enabled', { enabled: false });
    expect(patch.statusCode).toBe(200);
    const plain = description((await html(t, '/')).body);
    expect(plain).not.toMatch(/free shipping/i);
    expect(plain).toBe(
      'Eco-friendly cleaning products: reusable cleaning cloths, sweep-and-mop tools, refills, laundry powder and concentrated cleaner.',
    );
    expect(await answer(/shipping cost/)).not.toContain('Free Shipping');
    expect((await t.app.inject({ method: 'GET', url: '/api/settings' })).json().settings.free_shipping_minimum_cents).toBe('');

    // Back as seeded, for the tests after this one.
    await admin.request('PATCH', '/api/admin/shipping-options/free/enabled', { enabled: true });
    for (const o of before) await saveOption(o, {});
  });

  it('the owner edits the answers with their placeholders; an unknown placeholder is refused', async () => {
    const raw = (await admin.get('/api/admin/faqs')).json().items as Faq[];
    const taxFaq = raw.find((f) => /sales tax/.test(f.question))!;
    expect(taxFaq.answer).toBe('Yes. {{tax_rule}}');
    expect(raw.find((f) => /shipping cost/.test(f.question))!.answer).toBe('{{shipping_rates}}');
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/faqs' })).statusCode).toBe(401);

    const bad = await admin.request('PUT', `/api/admin/faqs/${taxFaq.id}`, {
      question: taxFaq.question,
      answer: 'Yes. {{tax_rate}}',
      category: 'Orders & Shipping',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('Unknown placeholder {{tax_rate}}: use {{shipping_rates}}, {{free_shipping}}, {{tax_rule}}');

    const edited = await admin.request('PUT', `/api/admin/faqs/${taxFaq.id}`, {
      question: taxFaq.question,
      answer: 'Yes, in every state we ship to. {{tax_rule}} {{free_shipping}}',
      category: 'Orders & Shipping',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().faq.answer).toBe('Yes, in every state we ship to. {{tax_rule}} {{free_shipping}}');
    const shown = await answer(/sales tax/);
    expect(shown).toMatch(
      /^Yes, in every state we ship to\. Sales tax of 8% is charged on your order subtotal minus any discount, plus shipping/,
    );
    expect(shown).toMatch(/Free shipping on orders with a subtotal of \$50\.00 or more\.$/);
    expect((await html(t, '/faq')).body).toContain('Yes, in every state we ship to. Sales tax of 8%');
  });

  it('a shop that still holds the seeded demo video and answers gets them replaced; what the owner wrote stays', async () => {
    const at = new Date().toISOString();
    await t.db.updateTable('settings').set({ value: truthful.SEEDED_HERO_VIDEO_URL }).where('key', '=', 'hero_video_url').execute();
    await t.db.updateTable('faqs').set({ answer: truthful.SEEDED_TAX_ANSWER }).where('id', '=', 'faq-2').execute();
    await t.db.updateTable('faqs').set({ answer: truthful.SEEDED_SHIPPING_ANSWER }).where('id', '=', 'faq-1').execute();
    await t.db
      .insertInto('faqs')
      .values({
        id: 'faq-own',
        question: 'Own?',
        answer: 'Sales tax of 8% is calculated on my own words.',
        category: null,
        sort_order: 99,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await truthful.up(t.db);
    const setting = await t.db.selectFrom('settings').select('value').where('key', '=', 'hero_video_url').executeTakeFirstOrThrow();
    expect(setting.value).toBe('');
    const rows = await t.db
      .selectFrom('faqs')
      .select(['id', 'answer'])
      .where('id', 'in', ['faq-1', 'faq-2', 'faq-own'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'faq-1', answer: '{{shipping_rates}}' },
      { id: 'faq-2', answer: 'Yes. {{tax_rule}}' },
      { id: 'faq-own', answer: 'Sales tax of 8% is calculated on my own words.' },
    ]);
    // A video the owner chose is theirs.
    await t.db.updateTable('settings').set({ value: 'https://player.vimeo.com/video/1' }).where('key', '=', 'hero_video_url').execute();
    await truthful.up(t.db);
    expect((await t.db.selectFrom('settings').select('value').where('key', '=', 'hero_video_url').executeTakeFirstOrThrow()).value).toBe(
      'https://player.vimeo.com/video/1',
    );
  });
});

describe(`images that are missing on ${testDialect()}`, () => {
  let t: TestApp;
  let clientDir: string;
  let uploadDir: string;
  beforeAll(async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-images-'));
    clientDir = path.join(root, 'client');
    uploadDir = path.join(root, 'uploads');
    // A built client with one product picture; every other seeded picture is missing.
    fs.mkdirSync(path.join(clientDir, 'images', 'products'), { recursive: true });
    fs.writeFileSync(path.join(clientDir, 'images', 'products', 'cloth-1-pack.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    fs.mkdirSync(uploadDir, { recursive: true });
    t = await createTestApp({ env: { CLIENT_DIR: clientDir, UPLOAD_DIR: uploadDir } });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(path.dirname(clientDir), { recursive: true, force: true });
  });

  const missingOn = async (url: string) => {
    const res = await html(t, url);
    expect(res.statusCode).toBe(200);
    return (initialData(res.body).find((e) => e.key[0] === 'missing-images')?.data ?? []) as string[];
  };

  it('names a product’s missing picture in the page’s first data, and not one that exists', async () => {
    const twoPack = await t.db.selectFrom('products').select('images').where('id', '=', 'cloth-2-pack').executeTakeFirstOrThrow();
    expect(JSON.parse(twoPack.images)).toEqual(['/images/products/cloth-2-pack.svg']);
    expect(await missingOn('/products/cloth-2-pack')).toContain('/images/products/cloth-2-pack.svg');
    expect(await missingOn('/products/cloth-1-pack')).not.toContain('/images/products/cloth-1-pack.svg');
    // The home page: the featured cards and the hero (the built hero.svg is not in this client either).
    const home = await missingOn('/');
    expect(home).toContain('/images/hero.svg');
    expect(home).not.toContain('/images/products/cloth-1-pack.svg');
  });

  it('an uploaded picture counts once its file is there, and a path outside the folders never does', async () => {
    const images = JSON.stringify(['/uploads/products/new.png', '/uploads/../client/images/products/cloth-1-pack.svg']);
    await t.db.updateTable('products').set({ images }).where('id', '=', 'cloth-1-pack').execute();
    await noteShopChange(t.db);
    const ours = async () => (await missingOn('/products/cloth-1-pack')).filter((p) => p.startsWith('/uploads/'));
    expect(await ours()).toEqual(['/uploads/products/new.png', '/uploads/../client/images/products/cloth-1-pack.svg']);
    // The file arrives; the back office's next write (the product saved with it) refreshes what is known.
    fs.mkdirSync(path.join(uploadDir, 'products'), { recursive: true });
    fs.writeFileSync(path.join(uploadDir, 'products', 'new.png'), 'png');
    await noteShopChange(t.db);
    expect(await ours()).toEqual(['/uploads/../client/images/products/cloth-1-pack.svg']);
  });
});
