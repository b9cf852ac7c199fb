import type { ReactNode } from 'react';
import { paths } from '../lib/paths.js';
import { Breadcrumb } from '../ui/breadcrumb.js';
import { Container } from '../ui/container.js';
import { ClockIcon, MailIcon, PhoneIcon } from '../ui/icons.js';
import { settingValue, useSettings } from '../lib/get-settings.js';
import { SocialLinks } from '../ui/social-links.js';
import { ContactForm } from './contact-form.js';

function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

function ContactRow({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <li className="flex items-start gap-4">
      <span className="mt-0.5 flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">{icon}</span>
      <div>
        <p className="text-sm font-semibold text-stone-900">{label}</p>
        <p className="text-stone-700">{children}</p>
      </div>
    </li>
  );
}

export default function ContactPage() {
  const { data: settings, isPending } = useSettings();
  const email = settingValue(settings, 'contact_email');
  const phone = settingValue(settings, 'contact_phone');
  const hours = settingValue(settings, 'contact_hours');
  const linkCls =
    'rounded text-brand-700 underline underline-offset-2 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600';

  return (
    <Container className="py-8">
      <Breadcrumb items={[{ label: 'Home', to: paths.home }, { label: 'Contact' }]} />
      <h1 className="mb-6 text-3xl font-bold text-stone-900">Contact Us</h1>

      <div className="grid items-start gap-6 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:gap-8">
        {isPending ? (
          <p role="status" className="rounded-xl border border-stone-200 bg-white p-6 text-stone-700 shadow-sm">
            Loading configuration...
          </p>
        ) : (
          <section aria-labelledby="contact-info-title" className="rounded-xl border border-stone-200 bg-white p-6 shadow-sm">
            <h2 id="contact-info-title" className="mb-2 text-xl font-semibold text-stone-900">
              Get in Touch
            </h2>
            {email && (
              <p className="mb-6 text-stone-700">
                Write to us at{' '}
                <a href={`mailto:${email}`} className={linkCls}>
                  {email}
                </a>{' '}
                and we&apos;ll get back to you.
              </p>
            )}
            <ul className="space-y-5">
              {email && (
                <ContactRow icon={<MailIcon size={20} />} label="Email">
                  <a href={`mailto:${email}`} className={linkCls}>
                    {email}
                  </a>
                </ContactRow>
              )}
              {phone && (
                <ContactRow icon={<PhoneIcon size={20} />} label="Phone">
                  <a href={telHref(phone)} className={linkCls}>
                    {phone}
                  </a>
                </ContactRow>
              )}
              {hours && (
                <ContactRow icon={<ClockIcon size={20} />} label="Hours">
                  {hours}
                </ContactRow>
              )}
            </ul>
            <div className="mt-6 border-t border-stone-200 pt-5">
              <h3 className="mb-2 text-sm font-semibold text-stone-900">Follow Us</h3>
              <SocialLinks settings={settings} showLabels />
            </div>
          </section>
        )}
        <div className="rounded-xl border border-stone-200 bg-white p-6 shadow-sm">
          <ContactForm />
        </div>
      </div>
    </Container>
  );
}
