import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { RootLayout } from './layout/root-layout.js';
import { HomePage } from './catalog/home-page.js';
import { ShopPage } from './catalog/shop-page.js';
import { ProductPage } from './catalog/product-page.js';

// Home, Shop and Product are the landing pages and ship in the main bundle; the rest load on demand.
const AboutPage = lazy(() => import('./content/about-page.js'));
const FaqPage = lazy(() => import('./content/faq-page.js'));
const ContactPage = lazy(() => import('./content/contact-page.js'));
const PrivacyPage = lazy(() => import('./content/privacy-page.js'));
const TermsPage = lazy(() => import('./content/terms-page.js'));
const CartPage = lazy(() => import('./cart/cart-page.js'));
const NotFoundPage = lazy(() => import('./content/not-found-page.js'));

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomePage />} />
        <Route path="products" element={<ShopPage />} />
        <Route path="products/:id" element={<ProductPage />} />
        <Route path="about" element={<AboutPage />} />
        <Route path="faq" element={<FaqPage />} />
        <Route path="contact" element={<ContactPage />} />
        <Route path="privacy" element={<PrivacyPage />} />
        <Route path="terms" element={<TermsPage />} />
        <Route path="cart" element={<CartPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
