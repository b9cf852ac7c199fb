import { matchPath, Route, Routes } from 'react-router';
import { RootLayout } from './layout/root-layout.js';
import { HomePage } from './catalog/home-page.js';
import { ShopPage } from './catalog/shop-page.js';
import { ProductPage } from './catalog/product-page.js';
import { lazyPage, type PreloadablePage } from './lazy-page.js';
import { afterZod } from './lib/load-zod.js';

// Home, Shop and Product are the landing pages and ship in the main bundle; the rest load on demand
// (pages with forms or live data after zod, see load-zod.ts).
const AboutPage = lazyPage(() => import('./content/about-page.js'));
const FaqPage = lazyPage(() => import('./content/faq-page.js'));
const ContactPage = lazyPage(afterZod(() => import('./content/contact-page.js')));
const PrivacyPage = lazyPage(() => import('./content/privacy-page.js'));
const TermsPage = lazyPage(() => import('./content/terms-page.js'));
const CartPage = lazyPage(() => import('./cart/cart-page.js'));
const AuthPage = lazyPage(() => import('./accounts/auth-page.js'));
const PasswordResetPage = lazyPage(() => import('./accounts/password-reset-page.js'));
const ResetPasswordPage = lazyPage(() => import('./accounts/reset-password-page.js'));
const DashboardPage = lazyPage(afterZod(() => import('./accounts/dashboard-page.js')));
const MyOrdersPage = lazyPage(() => import('./accounts/my-orders-page.js'));
const CheckoutPage = lazyPage(() => import('./checkout/checkout-page.js'));
const OrderConfirmationPage = lazyPage(afterZod(() => import('./orders/order-confirmation-page.js')));
const ThankYouPage = lazyPage(afterZod(() => import('./orders/thank-you-page.js')));
const SuccessPage = lazyPage(() => import('./orders/success-page.js'));
const AdminPage = lazyPage(afterZod(() => import('./admin/admin-page.js')));
const NotFoundPage = lazyPage(() => import('./content/not-found-page.js'));

const LAZY_ROUTES: { path: string; page: PreloadablePage }[] = [
  { path: '/about', page: AboutPage },
  { path: '/faq', page: FaqPage },
  { path: '/contact', page: ContactPage },
  { path: '/privacy', page: PrivacyPage },
  { path: '/terms', page: TermsPage },
  { path: '/cart', page: CartPage },
  { path: '/checkout', page: CheckoutPage },
  { path: '/order-confirmation', page: OrderConfirmationPage },
  { path: '/thank-you', page: ThankYouPage },
  { path: '/success', page: SuccessPage },
  { path: '/auth', page: AuthPage },
  { path: '/password-reset', page: PasswordResetPage },
  { path: '/reset-password', page: ResetPasswordPage },
  { path: '/dashboard', page: DashboardPage },
  { path: '/orders', page: MyOrdersPage },
  { path: '/admin/*', page: AdminPage },
];
const EAGER_PATHS = ['/', '/products', '/products/:id'];

/** Loads the code of the page at this path (nothing for pages in the main bundle). */
export function preloadRoute(pathname: string): Promise<unknown> {
  const hit = LAZY_ROUTES.find((r) => matchPath(r.path, pathname));
  if (hit) return hit.page.preload();
  if (EAGER_PATHS.some((p) => matchPath(p, pathname))) return Promise.resolve();
  return NotFoundPage.preload();
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomePage />} />
        <Route path="products" element={<ShopPage />} />
        <Route path="products/:id" element={<ProductPage />} />
        {LAZY_ROUTES.map(({ path, page: Page }) => (
          <Route key={path} path={path.slice(1)} element={<Page />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
