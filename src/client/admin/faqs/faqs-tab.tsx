import '../../lib/zod-config.js';
import { useState } from 'react';
import type { Faq } from '../../../shared/schemas/catalog.js';
import { CONTENT_ADMIN_MESSAGES } from '../../../shared/schemas/content.js';
import { paths } from '../../lib/paths.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { ConfirmDialog, ListState, Panel, RowActions } from '../components/admin-ui.js';
import { useAdminFaqs, useDeleteFaq } from '../api/content-api.js';
import { PreviewLink } from '../components/settings-form.js';
import { distinctCategories, FaqDialog, NO_CATEGORY } from './faq-dialog.js';

const ALL = 'All';

function FaqItem({ faq, onEdit, onDelete }: { faq: Faq; onEdit: () => void; onDelete: () => void }) {
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 flex-1">
        <h3 className="font-semibold text-stone-900">{faq.question}</h3>
        <p className="mt-1 line-clamp-3 whitespace-pre-line text-sm text-stone-700">{faq.answer}</p>
        <p className="mt-2">
          <span
            className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-medium ${
              faq.category ? 'bg-brand-50 text-brand-900' : 'bg-stone-100 text-stone-700'
            }`}
          >
            {faq.category ?? NO_CATEGORY}
          </span>
        </p>
      </div>
      <div className="shrink-0">
        <RowActions name={`FAQ: ${faq.question}`} onEdit={onEdit} onDelete={onDelete} editVariant="outline" />
      </div>
    </li>
  );
}

export default function FaqsTab() {
  const { data: faqs, error, isPending, refetch } = useAdminFaqs();
  const [filter, setFilter] = useState<string>(ALL);
  const [editing, setEditing] = useState<Faq | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<Faq | null>(null);
  const del = useDeleteFaq();

  const categories = faqs ? distinctCategories(faqs) : [];
  // A filter whose last FAQ was deleted or moved falls back to All.
  const active = filter === ALL || categories.includes(filter) ? filter : ALL;
  const visible = faqs?.filter((f) => active === ALL || f.category === active) ?? [];

  return (
    <Panel
      title="FAQs"
      actions={
        <>
          <PreviewLink href={paths.faq} />
          <Button onClick={() => setEditing('new')}>Add FAQ</Button>
        </>
      }
    >
      <ListState
        isPending={isPending}
        error={error && !faqs ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading FAQs..."
        isEmpty={faqs?.length === 0}
        empty={<p>No FAQs yet. Add the first question your customers ask.</p>}
      >
        {faqs && (
          <>
            <div role="group" aria-label="Filter by category" className="flex flex-wrap gap-2">
              {[ALL, ...categories].map((c) => {
                const count = c === ALL ? faqs.length : faqs.filter((f) => f.category === c).length;
                return (
                  <button
                    key={c}
                    type="button"
                    aria-pressed={active === c}
                    onClick={() => setFilter(c)}
                    className={`h-9 rounded-full border px-3.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
                      active === c
                        ? 'border-brand-600 bg-brand-600 text-white'
                        : 'border-stone-300 bg-white text-stone-800 hover:border-brand-600 hover:text-brand-700'
                    }`}
                  >
                    {c} <span className={active === c ? 'text-white' : 'text-stone-600'}>({count})</span>
                  </button>
                );
              })}
            </div>
            <ul className="mt-2 divide-y divide-stone-200" aria-label={active === ALL ? 'All FAQs' : `FAQs in ${active}`}>
              {visible.map((f) => (
                <FaqItem key={f.id} faq={f} onEdit={() => setEditing(f)} onDelete={() => setToDelete(f)} />
              ))}
            </ul>
          </>
        )}
      </ListState>
      {editing !== null && (
        <FaqDialog
          faq={editing === 'new' ? null : editing}
          categories={categories}
          defaultCategory={active === ALL ? null : active}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={toDelete !== null}
        message="Are you sure you want to delete this FAQ? This action cannot be undone."
        busy={del.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (!toDelete) return;
          del.mutate(toDelete.id, {
            onSuccess: () => toast({ title: CONTENT_ADMIN_MESSAGES.faqDeleted }),
            onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
            onSettled: () => setToDelete(null),
          });
        }}
      />
    </Panel>
  );
}
