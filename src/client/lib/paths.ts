import { pagePath } from '../../shared/pages.js';

/** Route paths for links, from the page table (src/shared/pages.ts), so links and the router agree. */
export const paths = {
  home: pagePath('home'),
  products: pagePath('shop'),
  productsInCategory: (categoryId: string) => `${pagePath('shop')}?category=${encodeURIComponent(categoryId)}`,
  /** A product's page, opened on one of its variants when given. */
  product: (id: string, variantId?: string) =>
    `${pagePath('shop')}/${encodeURIComponent(id)}${variantId ? `?variant=${encodeURIComponent(variantId)}` : ''}`,
  cart: pagePath('cart'),
  checkout: pagePath('checkout'),
  orderConfirmation: pagePath('order-confirmation'),
  thankYou: pagePath('thank-you'),
  success: pagePath('success'),
  about: pagePath('about'),
  contact: pagePath('contact'),
  faq: pagePath('faq'),
  privacy: pagePath('privacy'),
  terms: pagePath('terms'),
  auth: pagePath('auth'),
  authTab: (tab: 'signin' | 'signup' | 'reset') => `${pagePath('auth')}?tab=${tab}`,
  passwordReset: pagePath('password-reset'),
  resetPassword: pagePath('reset-password'),
  dashboard: pagePath('dashboard'),
  orders: pagePath('orders'),
  myReviews: pagePath('my-reviews'),
  // The back office's own routes live under /admin/* (admin-page.tsx).
  admin: '/admin',
} as const;
