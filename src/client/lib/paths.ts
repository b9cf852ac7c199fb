/** Route paths in one place, so links and the router agree. */
export const paths = {
  home: '/',
  products: '/products',
  productsInCategory: (categoryId: string) => `/products?category=${encodeURIComponent(categoryId)}`,
  product: (id: string) => `/products/${encodeURIComponent(id)}`,
  cart: '/cart',
  about: '/about',
  contact: '/contact',
  faq: '/faq',
  privacy: '/privacy',
  terms: '/terms',
  auth: '/auth',
} as const;
