import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { useSession } from '../lib/get-session.js';
import { signOut } from '../lib/sign-out.js';
import { errorMessage } from '../lib/error-message.js';
import { clearCart, useCart } from '../cart/cart-store.js';
import { signInLinkFrom } from '../lib/safe-redirect.js';
import { useHydrated } from '../lib/use-hydrated.js';
import { paths } from '../lib/paths.js';
import { CartIcon, CloseIcon, LeafIcon, MenuIcon, SearchIcon, UserIcon } from '../ui/icons.js';
import { toast } from '../ui/toast.js';

const NAV_ITEMS = [
  { to: paths.home, label: 'Home', end: true },
  { to: paths.products, label: 'Shop', end: false },
  { to: paths.about, label: 'About', end: false },
  { to: paths.contact, label: 'Contact', end: false },
  { to: paths.faq, label: 'FAQ', end: false },
] as const;
const DASHBOARD_ITEM = { to: paths.dashboard, label: 'Dashboard', end: false } as const;
const ADMIN_ITEM = { to: paths.admin, label: 'Admin', end: false } as const;

const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

function cartLabel(count: number): string {
  return `Cart, ${count} ${count === 1 ? 'item' : 'items'}`;
}

/**
 * Product search on every page: a plain GET form to the shop (it works before the page's script);
 * with the script, it moves in place. In the bar from tablet width, in the menu on a phone.
 */
function HeaderSearch({ className }: { className: string }) {
  const navigate = useNavigate();
  return (
    <form
      role="search"
      action={paths.products}
      className={`relative ${className}`}
      onSubmit={(e) => {
        e.preventDefault();
        const text = String(new FormData(e.currentTarget).get('search')).trim();
        void navigate(text ? `${paths.products}?${new URLSearchParams({ search: text })}` : paths.products);
      }}
    >
      <SearchIcon size={18} className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-stone-500" />
      <input
        type="search"
        name="search"
        aria-label="Search the shop"
        placeholder="Search the shop..."
        maxLength={100}
        className="h-10 w-full rounded-md border border-stone-400 bg-white pl-10 pr-3 text-base text-stone-900 placeholder:text-stone-500 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600"
      />
    </form>
  );
}

export function Header() {
  const { itemCount } = useCart();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Until the session is known the header shows the guest view, as the server rendered it.
  const { user, impersonatorEmail } = useSession();
  const [signingOut, setSigningOut] = useState(false);
  const clearCartOnLeaving = useRef(false);
  useEffect(() => {
    if (!clearCartOnLeaving.current) return;
    clearCartOnLeaving.current = false;
    clearCart();
  }, [location.pathname]);
  const navItems = [...NAV_ITEMS, ...(user ? [DASHBOARD_ITEM] : []), ...(user?.role === 'admin' ? [ADMIN_ITEM] : [])];

  const onSignOut = async () => {
    setSigningOut(true);
    try {
      // The cart leaves this browser only once the account keeps it, or the customer says so.
      const savedCart = await import('../cart/saved-cart-sync.js');
      if (!(await savedCart.readyToSignOut(impersonatorEmail ? null : (user?.id ?? null)))) return;
      // While impersonating, signing out ends the impersonation only: the admin stays signed in.
      if (impersonatorEmail) toast({ title: 'Ending impersonation' });
      await signOut(queryClient, ({ impersonationEnded }) => {
        // Nothing of the shopper stays on a shared computer: the server dropped the cart's cookie,
        // and the cart empties once the page has left (a checkout seeing its cart empty would
        // otherwise send the shopper to the cart instead).
        savedCart.forgetCartAccount();
        if (location.pathname === paths.auth) clearCart();
        else clearCartOnLeaving.current = true;
        if (!impersonationEnded) toast({ title: 'Signed out', description: 'You have been signed out successfully.' });
        void navigate(paths.auth);
      });
    } catch (err) {
      toast({ title: 'Error signing out', description: errorMessage(err, '') || undefined, variant: 'destructive' });
    } finally {
      setSigningOut(false);
    }
  };
  // Back to this page after signing in. The link the server drew (and hydration) is plain /auth:
  // the server's copy of a page is shared by every query string it ignores.
  const hydrated = useHydrated();
  const signInTo = hydrated ? signInLinkFrom(location.pathname, location.search) : paths.auth;
  const [menuOpen, setMenuOpen] = useState(false);
  // Close the mobile menu whenever the route changes (derived during render, no effect needed).
  const locationKey = `${location.pathname}${location.search}`;
  const [menuLocation, setMenuLocation] = useState(locationKey);
  if (menuLocation !== locationKey) {
    setMenuLocation(locationKey);
    setMenuOpen(false);
  }

  // Escape closes the mobile menu and hands focus back to its button.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenuOpen(false);
      document.querySelector<HTMLElement>('[aria-controls="mobile-menu"]')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <header className="sticky top-0 z-40 border-b border-stone-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link to={paths.home} className={`flex items-center gap-2 rounded text-xl font-bold text-brand-700 ${focusRing}`}>
          <LeafIcon size={28} className="text-brand-600" />
          <span>EcoClean</span>
        </Link>

        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {navItems.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.end}
                  className={({ isActive }) =>
                    `rounded-md px-3 py-2 text-sm font-medium ${focusRing} ${
                      isActive ? 'bg-brand-50 text-brand-800' : 'text-stone-700 hover:bg-stone-100 hover:text-stone-900'
                    }`
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <HeaderSearch className="hidden min-w-0 max-w-xs flex-1 md:block" />

        <div className="flex items-center gap-1">
          {user ? (
            <button
              type="button"
              disabled={signingOut}
              onClick={() => void onSignOut()}
              className={`rounded-md p-2 text-sm font-medium text-stone-700 hover:bg-stone-100 disabled:opacity-60 ${focusRing}`}
            >
              <span>Sign out</span>
            </button>
          ) : (
            <Link to={signInTo} aria-label="Sign in" className={`rounded-md p-2 text-stone-700 hover:bg-stone-100 ${focusRing}`}>
              <UserIcon size={22} />
            </Link>
          )}
          <Link
            to={paths.cart}
            aria-label={cartLabel(itemCount)}
            className={`relative rounded-md p-2 text-stone-700 hover:bg-stone-100 ${focusRing}`}
          >
            <CartIcon size={22} />
            {itemCount > 0 && (
              <span
                aria-hidden="true"
                className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-600 px-1 text-xs font-semibold text-white"
              >
                {itemCount > 99 ? '99+' : itemCount}
              </span>
            )}
          </Link>
          <button
            type="button"
            className={`rounded-md p-2 text-stone-700 hover:bg-stone-100 md:hidden ${focusRing}`}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((o) => !o)}
          >
            {menuOpen ? <CloseIcon size={22} /> : <MenuIcon size={22} />}
          </button>
        </div>
      </div>

      <div id="mobile-menu" hidden={!menuOpen} className="border-t border-stone-200 bg-white md:hidden">
        <div className="px-4 pt-3">
          <HeaderSearch className="w-full" />
        </div>
        <nav aria-label="Mobile">
          <ul className="flex flex-col px-4 py-2">
            {navItems.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.end}
                  onClick={() => setMenuOpen(false)}
                  className={({ isActive }) =>
                    `block rounded-md px-3 py-3 text-base font-medium ${focusRing} ${
                      isActive ? 'bg-brand-50 text-brand-800' : 'text-stone-800 hover:bg-stone-100'
                    }`
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
