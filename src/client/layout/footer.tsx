import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { useSettings } from '../lib/get-settings.js';
import { SocialLinks } from '../ui/social-links.js';
import { paths } from '../lib/paths.js';
import { checkoutProviderFrom, paymentFooterText } from '../../shared/payment-footer.js';
import { LeafIcon, LockIcon } from '../ui/icons.js';
import type * as LegalContent from '../ui/legal-content.js';

const CATEGORY_SHORTCUTS = [
  { id: 'cleaning-cloths', label: 'Cleaning Cloths' },
  { id: 'mops', label: 'Mops' },
  { id: 'cleaners', label: 'Cleaners' },
] as const;

const COMPANY_LINKS = [
  { to: paths.about, label: 'About' },
  { to: paths.contact, label: 'Contact' },
  { to: paths.faq, label: 'FAQ' },
] as const;

const linkCls =
  'rounded text-stone-300 hover:text-white hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';

type LegalDialog = 'privacy' | 'terms' | null;

/**
 * The legal texts are in a chunk of their own, loaded when the shopper reaches for a dialog (or,
 * failing that, as it opens): no page's first screen shows them. The dialog opens with its text.
 */
let legalTexts: typeof LegalContent | undefined;
const loadLegalTexts = () => import('../ui/legal-content.js').then((m) => (legalTexts = m));

export function Footer() {
  const { data: settings } = useSettings();
  const [dialog, setDialog] = useState<LegalDialog>(null);
  const close = useCallback(() => setDialog(null), []);
  const open = (which: 'privacy' | 'terms') => {
    void loadLegalTexts().then(
      () => setDialog(which),
      // Without its text (the chunk could not load), the page of the same name has it.
      () => window.location.assign(paths[which]),
    );
  };
  const prefetch = () => void loadLegalTexts().catch(() => undefined);
  const year = new Date().getFullYear();

  return (
    <footer className="mt-16 bg-stone-900 text-stone-200">
      <div className="mx-auto grid max-w-7xl grid-cols-2 gap-8 px-4 py-12 sm:grid-cols-3 sm:px-6 lg:grid-cols-4 lg:px-8">
        <div className="col-span-2 space-y-4 sm:col-span-3 lg:col-span-1">
          <Link
            to={paths.home}
            className="inline-flex items-center gap-2 rounded text-xl font-bold text-white focus-visible:outline-2 focus-visible:outline-white"
          >
            <LeafIcon size={26} className="text-brand-300" />
            <span>EcoClean</span>
          </Link>
          <p className="text-sm text-stone-300">Eco-friendly cleaning products for a cleaner home and a healthier planet.</p>
          <SocialLinks settings={settings} tone="dark" />
        </div>

        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-white">Shop</h2>
          <ul className="space-y-2 text-sm">
            {CATEGORY_SHORTCUTS.map((c) => (
              <li key={c.id}>
                <Link to={paths.productsInCategory(c.id)} className={linkCls}>
                  {c.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>

        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-white">Company</h2>
          <ul className="space-y-2 text-sm">
            {COMPANY_LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className={linkCls}>
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>

        <div>
          <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-white">Legal</h2>
          <ul className="space-y-2 text-sm">
            <li>
              <button type="button" className={linkCls} onPointerDown={prefetch} onFocus={prefetch} onClick={() => open('privacy')}>
                Privacy Policy
              </button>
            </li>
            <li>
              <button type="button" className={linkCls} onPointerDown={prefetch} onFocus={prefetch} onClick={() => open('terms')}>
                Terms of Service
              </button>
            </li>
          </ul>
        </div>
      </div>

      <div className="border-t border-stone-700">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-6 text-sm text-stone-300 sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
          <p className="flex items-center gap-2">
            <LockIcon size={16} />
            {paymentFooterText(checkoutProviderFrom(settings))}
          </p>
          <p>© {year} EcoClean. All rights reserved.</p>
        </div>
      </div>

      {legalTexts && <legalTexts.LegalDialogs open={dialog} onClose={close} />}
    </footer>
  );
}
