import { useCallback } from 'react';
import type { ProductCardItem } from '../../shared/product-card.js';
import { toast } from '../ui/toast.js';
import { addToCart, unitsInCart } from './cart-store.js';

/** What Add to Cart adds: a product's card, or one variant of it (name: the line's title; inventory: the variant's). */
export type AddableItem = Pick<ProductCardItem, 'id' | 'name' | 'priceCents' | 'images' | 'inventory'> & {
  variantId?: string;
  /** The line's size and colour when the variant's options name them. */
  size?: string;
  color?: string;
  /** A subscription line: delivered every this many weeks (absent: bought once). */
  everyWeeks?: number;
};

/**
 * Add to Cart's words. Here rather than with the checkout's texts (src/shared/checkout-text.ts):
 * every product card adds to the cart, so these ship in the first-load bundle, and that file does not.
 */
export const ADD_TO_CART_MESSAGES = {
  added: 'Added to cart',
  addedAll: (name: string) => `${name} has been added to your cart.`,
  addedSome: (added: number, wanted: number, available: number) => `Added ${added} of ${wanted}: only ${available} left`,
  noneAdded: (available: number) => (available > 0 ? `None added: only ${available} left` : 'None added: out of stock'),
  cartHoldsAll: (name: string, inCart: number) => `${name}: your cart holds ${inCart}, all we have in stock.`,
  soldOut: (name: string) => `${name} is out of stock.`,
} as const;

/**
 * Adds a product and says exactly what happened: all of it, part of it (the cart never holds more
 * than can be bought), or none (the cart already holds all there is, or nothing is left).
 */
export function useAddToCart() {
  return useCallback((product: AddableItem, quantity = 1) => {
    const wanted = Math.max(0, Math.floor(quantity));
    // Its inventory, size, colour and interval (a subscription line) come with the item.
    const added = addToCart({ ...product, product, quantity: wanted });
    if (added > 0 && added >= wanted) {
      toast({ title: ADD_TO_CART_MESSAGES.added, description: ADD_TO_CART_MESSAGES.addedAll(product.name) });
      return;
    }
    const inCart = unitsInCart(product.id, product.variantId);
    const description =
      product.inventory > 0 ? ADD_TO_CART_MESSAGES.cartHoldsAll(product.name, inCart) : ADD_TO_CART_MESSAGES.soldOut(product.name);
    toast({
      title:
        added > 0 ? ADD_TO_CART_MESSAGES.addedSome(added, wanted, product.inventory) : ADD_TO_CART_MESSAGES.noneAdded(product.inventory),
      description,
      variant: added > 0 ? 'default' : 'destructive',
    });
  }, []);
}
