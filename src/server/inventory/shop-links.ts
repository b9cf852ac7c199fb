import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/*
 * The shop's address for the links in stock e-mails (the owner's low-stock and sold-out notices,
 * shoppers' back-in-stock notices). Each app passes its own in with its database handle
 * (`bindShopAddress`, called by buildApp), so two apps in one process, each on its own database,
 * keep their own links; a transaction opened from that handle finds it too (it shares the handle's
 * dialect adapter). A handle no app was built on (a seed script) links to the development address.
 */
const DEVELOPMENT_ADDRESS = 'http://localhost:3000';
const addresses = new WeakMap<object, string>();

const keyOf = (db: Kysely<Database>): object => db.getExecutor().adapter;

/** Gives a database handle (and every transaction opened from it) the app's public address. */
export function bindShopAddress(db: Kysely<Database>, publicUrl: string): void {
  addresses.set(keyOf(db), publicUrl.replace(/\/+$/, ''));
}

/** The public address of the app whose database handle (or transaction) this is. */
export function shopAddressOf(db: Kysely<Database>): string {
  return addresses.get(keyOf(db)) ?? DEVELOPMENT_ADDRESS;
}

/** A product's page in the shop. */
export function productUrl(db: Kysely<Database>, productId: string): string {
  return `${shopAddressOf(db)}/products/${encodeURIComponent(productId)}`;
}

/** The Products tab filtered to the products in that state (the one e-mailed about among them). */
export function adminStockUrl(db: Kysely<Database>, state: 'low' | 'out'): string {
  return `${shopAddressOf(db)}/admin?tab=products&stock=${state}`;
}
