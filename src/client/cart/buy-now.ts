/**
 * Buy Now's word to the checkout (navigation state): the product and quantity it was pressed for,
 * so the checkout can say when the cart holds more than that (decision 0035).
 */
export type BuyNowState = { buyNow?: { productId: string; name: string; quantity: number } };
