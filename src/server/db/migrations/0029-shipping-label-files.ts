import type { Kysely } from 'kysely';

/**
 * What ShipStation answered for an order's label, to print it from the shop: v1's label itself
 * (`labelData`, a base64 PDF, kept here and served by an admin-only route) or v2's download address
 * (`label_download.pdf`). One row per order's current label, keyed by the order; it goes when the
 * label is voided (a voided label must not be printed) or the order is deleted. `status_before`:
 * the order's status when the label was bought, which voiding the label puts back. Kept apart from
 * `orders` so that reading orders never reads a PDF.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shipping_label_files')
    .ifNotExists()
    .addColumn('order_id', 'text', (c) => c.primaryKey().references('orders.id').onDelete('cascade'))
    .addColumn('label_key', 'text')
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('content_base64', 'text')
    .addColumn('download_url', 'text')
    .addColumn('status_before', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('shipping_label_files').ifExists().execute();
}
