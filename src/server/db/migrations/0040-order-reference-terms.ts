import { sql, type Kysely } from 'kysely';

/**
 * The order reference is now the brand prefix and the order number (`ECAX3N0EWV`, decision 0044)
 * instead of the id's last 6 (`EC3N0EWV`): file every existing order under its new reference too,
 * so the owner's search finds it by either. One statement; the old terms stay (e-mails already sent
 * carry them).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    insert into order_search_terms (term, order_id)
    select 'ec' || lower(order_number), id from orders
    where not exists (
      select 1 from order_search_terms t where t.order_id = orders.id and t.term = 'ec' || lower(orders.order_number)
    )
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from order_search_terms where term = 'ec' || lower((select order_number from orders where orders.id = order_search_terms.order_id))`.execute(
    db,
  );
}
