import type { ReactNode } from 'react';
import { Dialog } from './dialog.js';
import { useSettings } from '../lib/get-settings.js';
import { checkoutProviderFrom, paymentTexts } from '../../shared/payment-provider.js';

type HeadingLevel = 2 | 3;

function Section({ level, title, children }: { level: HeadingLevel; title: string; children: ReactNode }) {
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <section className="space-y-3">
      <H className="text-lg font-semibold text-stone-900">{title}</H>
      <div className="space-y-3 leading-relaxed text-stone-700">{children}</div>
    </section>
  );
}

/** Privacy text, shared by /privacy and the footer dialog; `level` is the section heading level. */
export function PrivacyContent({ level = 2 }: { level?: HeadingLevel }) {
  const { data: settings } = useSettings();
  return (
    <div className="space-y-6">
      <p className="leading-relaxed text-stone-700">
        EcoClean respects your privacy. This policy explains what information we collect when you visit our shop or place an order, how we
        use it, and the choices you have.
      </p>
      <Section level={level} title="Information We Collect">
        <p>
          We collect the information you give us: your name, e-mail address, phone number, shipping and billing addresses, and the messages
          you send us. When you create an account we also keep your order history and loyalty points.
        </p>
        {/* Where card details go, in the mode the shop runs in (Stripe, or its own test card page). */}
        <p>{paymentTexts(checkoutProviderFrom(settings)).privacy}</p>
      </Section>
      <Section level={level} title="How We Use Your Information">
        <ul className="list-disc space-y-1 pl-5">
          <li>To process, ship and track your orders.</li>
          <li>To send order confirmations, shipping updates and replies to your questions.</li>
          <li>To manage your account and loyalty rewards.</li>
          <li>To improve our products, our website and our service.</li>
        </ul>
      </Section>
      <Section level={level} title="Information Sharing">
        <p>
          We do not sell or rent your personal information to anyone. We share it only with the service providers who help us run the shop,
          such as our payment processor and shipping carriers, and only as far as they need it to do their work, or when the law requires
          it.
        </p>
      </Section>
      <Section level={level} title="Your Rights">
        <p>
          You may ask to see the personal information we hold about you, to correct it, or to delete it. You can update your contact details
          and addresses from your dashboard at any time. To make a request, contact us through the Contact page.
        </p>
      </Section>
    </div>
  );
}

/** Terms text, shared by /terms and the footer dialog. */
export function TermsContent({ level = 2 }: { level?: HeadingLevel }) {
  return (
    <div className="space-y-6">
      <p className="leading-relaxed text-stone-700">
        Please read these terms carefully before using the EcoClean website or buying our products.
      </p>
      <Section level={level} title="Agreement to Terms">
        <p>
          By accessing this website or placing an order, you agree to be bound by these Terms of Service. If you do not agree with any part
          of them, please do not use the site.
        </p>
      </Section>
      <Section level={level} title="Intellectual Property">
        <p>
          All content on this site, including text, images, logos and product designs, belongs to EcoClean or its licensors and is protected
          by copyright and trademark law. You may not copy, reproduce or distribute it without our written permission.
        </p>
      </Section>
      <Section level={level} title="User Accounts">
        <p>
          You are responsible for keeping your account credentials confidential and for all activity under your account. Please give
          accurate information and tell us promptly about any unauthorised use.
        </p>
      </Section>
      <Section level={level} title="Limitation of Liability">
        <p>
          EcoClean is not liable for any indirect, incidental or consequential damages arising from your use of the site or our products.
          Our total liability for any claim is limited to the amount you paid for the product concerned.
        </p>
      </Section>
    </div>
  );
}

/**
 * The footer's two legal dialogs, in this chunk with their texts: neither is on any page's first
 * screen, so the dialog's code loads with the text when the shopper reaches for one.
 */
export function LegalDialogs({ open, onClose }: { open: 'privacy' | 'terms' | null; onClose: () => void }) {
  return (
    <>
      <Dialog open={open === 'privacy'} onClose={onClose} title="Privacy Policy">
        <PrivacyContent level={3} />
      </Dialog>
      <Dialog open={open === 'terms'} onClose={onClose} title="Terms of Service">
        <TermsContent level={3} />
      </Dialog>
    </>
  );
}
