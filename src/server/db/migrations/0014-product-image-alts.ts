import type { Kysely } from 'kysely';

/**
 * Alt text for each product image (docs/decisions/0017-product-gallery-related-free-shipping.md): a JSON array of
 * strings beside `images`, in the same order. Existing products get '[]', which reads as "no alt
 * text written" for every image (the shop then describes the image by the product's name).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('products')
    .addColumn('image_alts', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('products').dropColumn('image_alts').execute();
}
