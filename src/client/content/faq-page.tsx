import { useId, useState } from 'react';
import type { Faq } from '../../shared/schemas/catalog.js';
import { paths } from '../lib/paths.js';
import { paragraphs } from '../lib/text.js';
import { Alert } from '../ui/alert.js';
import { Breadcrumb } from '../ui/breadcrumb.js';
import { Container } from '../ui/container.js';
import { ChevronDownIcon } from '../ui/icons.js';
import { useFaqs } from './api/get-faqs.js';

const ALL = 'All';

function distinctCategories(faqs: Faq[]): string[] {
  const seen = new Set<string>();
  for (const f of faqs) if (f.category) seen.add(f.category);
  return [...seen];
}

export default function FaqPage() {
  const { data: faqs, isPending, isError, error } = useFaqs();
  const [filter, setFilter] = useState<string>(ALL);
  const [openId, setOpenId] = useState<string | null>(null);
  const baseId = useId();

  const categories = faqs ? distinctCategories(faqs) : [];
  const visible = faqs?.filter((f) => filter === ALL || f.category === filter) ?? [];

  return (
    <Container narrow className="py-8">
      <Breadcrumb items={[{ label: 'Home', to: paths.home }, { label: 'FAQ' }]} />
      <h1 className="mb-6 text-3xl font-bold text-stone-900">Frequently Asked Questions</h1>

      {isPending ? (
        <p role="status" className="text-stone-700">
          Loading FAQs...
        </p>
      ) : isError ? (
        <Alert variant="destructive" title={error.message} />
      ) : (
        <>
          {categories.length > 0 && (
            <div role="group" aria-label="Filter by category" className="mb-6 flex flex-wrap gap-2">
              {[ALL, ...categories].map((c) => (
                <button
                  key={c}
                  type="button"
                  aria-pressed={filter === c}
                  onClick={() => {
                    setFilter(c);
                    setOpenId(null);
                  }}
                  className={`h-10 rounded-full border px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                    filter === c
                      ? 'border-brand-600 bg-brand-600 text-white'
                      : 'border-stone-300 bg-white text-stone-800 hover:border-brand-600 hover:text-brand-700'
                  }`}
                >
                  {c}
                </button>
              ))}
            </div>
          )}

          <ul className="divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
            {visible.map((faq) => {
              const open = openId === faq.id;
              const panelId = `${baseId}-panel-${faq.id}`;
              const buttonId = `${baseId}-button-${faq.id}`;
              return (
                <li key={faq.id}>
                  <h2 className="text-base">
                    <button
                      id={buttonId}
                      type="button"
                      aria-expanded={open}
                      aria-controls={panelId}
                      onClick={() => setOpenId(open ? null : faq.id)}
                      className="flex w-full items-center justify-between gap-4 px-5 py-4 text-left font-semibold text-stone-900 hover:bg-stone-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
                    >
                      <span>{faq.question}</span>
                      <ChevronDownIcon size={20} className={`shrink-0 text-stone-600 transition-transform ${open ? 'rotate-180' : ''}`} />
                    </button>
                  </h2>
                  <div id={panelId} role="region" aria-labelledby={buttonId} hidden={!open} className="space-y-3 px-5 pb-5 text-stone-700">
                    {paragraphs(faq.answer).map((p, i) => (
                      <p key={i} className="leading-relaxed">
                        {p}
                      </p>
                    ))}
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </Container>
  );
}
