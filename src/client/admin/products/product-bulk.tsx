import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { BULK_MAX, BulkResponse, type BulkOutcome, type BulkProductInput } from '../../../shared/schemas/bulk.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { adminSend, logUnexpected, messageOf } from '../api/admin-api.js';
import { BulkBar, BulkResultsDialog, type Selection } from '../components/bulk.js';
import { ConfirmDialog } from '../components/admin-ui.js';

type Category = { id: string; name: string };

/** The Products tab's bulk bar: move to a category (or none), set or unset featured, delete; each product reported. */
export function ProductBulkBar({ selection, categories }: { selection: Selection; categories: readonly Category[] }) {
  const id = useId();
  const qc = useQueryClient();
  const [category, setCategory] = useState('');
  const [asked, setAsked] = useState<BulkProductInput | null>(null);
  const [results, setResults] = useState<{ title: string; items: BulkOutcome[] } | null>(null);
  const run = useMutation({
    onError: logUnexpected,
    mutationFn: (body: BulkProductInput) => adminSend('POST', '/api/admin/products/bulk', BulkResponse, body),
    onSettled: () =>
      Promise.all([qc.invalidateQueries({ queryKey: ['admin', 'products'] }), qc.invalidateQueries({ queryKey: ['products'] })]),
  });
  const ids = selection.ids;
  const n = ids.length;
  const products = `${n} product${n === 1 ? '' : 's'}`;
  const over = n > BULK_MAX;

  const titleOf = (b: BulkProductInput) =>
    b.action === 'delete'
      ? 'Delete products'
      : b.action === 'featured'
        ? b.featured
          ? 'Mark featured'
          : 'Unmark featured'
        : 'Change category';
  const send = (body: BulkProductInput) =>
    run.mutate(body, {
      onSuccess: (r) => {
        setAsked(null);
        setResults({ title: titleOf(body), items: r.results });
        selection.setMany(
          r.results.filter((x) => x.result !== 'skipped').map((x) => x.id),
          false,
        );
      },
      onError: (err) => {
        setAsked(null);
        toast({ title: 'Error', description: messageOf(err), variant: 'destructive' });
      },
    });
  const categoryName = (cid: string | null) => (cid ? (categories.find((c) => c.id === cid)?.name ?? cid) : 'no category');

  return (
    <>
      <BulkBar count={n} noun={['product', 'products']} onClear={selection.clear}>
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={`${id}-category`} className="text-sm font-medium text-stone-900">
            Move to
          </label>
          <select
            id={`${id}-category`}
            value={category}
            onChange={(e) => setCategory(e.target.value)}
            className="rounded-md border border-stone-300 bg-white px-2 py-1.5 text-sm"
          >
            <option value="">Choose a category…</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
            <option value="none">No category</option>
          </select>
          <Button
            size="sm"
            disabled={!category || over || run.isPending}
            onClick={() => send({ action: 'category', ids, categoryId: category === 'none' ? null : category })}
          >
            Move
          </Button>
        </div>
        <Button
          size="sm"
          variant="outline"
          disabled={over || run.isPending}
          onClick={() => send({ action: 'featured', ids, featured: true })}
        >
          Mark featured
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={over || run.isPending}
          onClick={() => send({ action: 'featured', ids, featured: false })}
        >
          Unmark featured
        </Button>
        <Button size="sm" variant="destructive" disabled={over || run.isPending} onClick={() => setAsked({ action: 'delete', ids })}>
          Delete
        </Button>
      </BulkBar>
      <ConfirmDialog
        open={asked !== null}
        title="Delete the selected products?"
        message={`Are you sure you want to delete these ${products}? This action cannot be undone. Orders that bought them keep their lines.`}
        busy={run.isPending}
        onConfirm={() => asked && send(asked)}
        onClose={() => setAsked(null)}
      />
      <BulkResultsDialog
        title={
          results
            ? `${results.title}${results.title === 'Change category' ? ` to ${categoryName(category === 'none' ? null : category)}` : ''}`
            : ''
        }
        results={results?.items ?? null}
        onClose={() => setResults(null)}
      />
    </>
  );
}
