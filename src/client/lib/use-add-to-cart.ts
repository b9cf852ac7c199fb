import { useCallback } from 'react';
import type { ProductCardItem } from '../../shared/product-card.js';
import { toast } from '../ui/toast.js';
import { addToCart, getCart } from './cart-store.js';

/** Adds a product and tells the shopper what happened. */
export function useAddToCart() {
  return useCallback((product: ProductCardItem, quantity = 1) => {
    const added = addToCart({ product, quantity, inventory: product.inventory });
    if (added > 0) {
      toast({ title: 'Added to cart', description: `${product.name} has been added to your cart.` });
      return;
    }
    const inCart = getCart().items.find((l) => l.product.id === product.id)?.quantity ?? 0;
    toast({
      title: `Only ${product.inventory} left`,
      description: `${product.name}: your cart already holds ${inCart}, all we have in stock.`,
      variant: 'destructive',
    });
  }, []);
}
