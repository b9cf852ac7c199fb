import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { REVIEW_HIDE_REASON_LABELS, REVIEW_LIMITS } from '../../../shared/reviews.js';
import { BULK_MAX } from '../../../shared/schemas/bulk.js';
import type { HideReviewInput } from '../../../shared/schemas/reviews.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { messageOf } from '../api/admin-api.js';
import { DataTable, type Column } from '../components/admin-ui.js';
import { PagedList, RowsSkeleton, StatusChips, type StatusChip } from '../components/paged-list.js';
import { withParams } from '../components/search-params.js';
import { BulkBar, selectColumn, SelectPageBox, useSelection } from '../components/bulk.js';
import { useBulkReviews, useReviewAction, type ReviewAction } from './act-on-review.js';
import { QUEUE_STATUSES, useReviews, type QueueStatus, type ReviewFilters } from './get-reviews.js';
import { HideReviewDialog } from './hide-review-dialog.js';
import { ProductFilter } from './product-filter.js';
import { ReplyDialog } from './reply-dialog.js';
import { ReviewAuthor, ReviewContent, ReviewDate, ReviewProduct } from './review-content.js';
import { REVIEW_QUEUE_MESSAGES, type AdminReview, type ReviewCounts } from './review-schemas.js';
import { REVIEW_STATUS_TEXT, ReviewStatusBadge } from './review-status.js';

/*
 * The queue's filters live in the address (`?tab=reviews&status=pending&photos=with&rating=2&
 * product=ID&productName=…&page=2`), so reload and Back keep them. Pending is the default: the
 * queue opens on the work waiting.
 */
const PARAM = {
  status: 'status',
  photos: 'photos',
  rating: 'rating',
  product: 'product',
  productName: 'productName',
  page: 'page',
} as const;
type ParamKey = keyof typeof PARAM;

function filtersFrom(params: URLSearchParams): ReviewFilters & { productName: string } {
  const status = params.get(PARAM.status);
  const rating = Number(params.get(PARAM.rating));
  const page = Number(params.get(PARAM.page));
  return {
    status: QUEUE_STATUSES.find((s) => s === status) ?? 'pending',
    withPhotos: params.get(PARAM.photos) === 'with',
    rating: Number.isInteger(rating) && rating >= REVIEW_LIMITS.ratingMin && rating <= REVIEW_LIMITS.ratingMax ? rating : null,
    productId: (params.get(PARAM.product) ?? '').slice(0, 64),
    productName: (params.get(PARAM.productName) ?? '').slice(0, 200),
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

function useQueueFilters() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const set = (changes: Partial<Record<ParamKey, string | number | null>>) => {
    const onTab = new URLSearchParams(params);
    onTab.set('tab', 'reviews');
    setParams(withParams(onTab, PARAM, changes));
  };
  return { filters, set };
}

const STATUS_CHIPS: { id: QueueStatus; label: string }[] = [
  ...(['pending', 'published', 'hidden'] as const).map((s) => ({ id: s, label: REVIEW_STATUS_TEXT[s] })),
  { id: 'all', label: 'All' },
];

/** Pending, Published, Hidden and All, each with its count. */
function statusChips(counts: ReviewCounts | undefined): StatusChip<QueueStatus>[] {
  const countOf = (s: QueueStatus) => (counts ? (s === 'all' ? counts.pending + counts.published + counts.hidden : counts[s]) : undefined);
  return STATUS_CHIPS.map((c) => ({ ...c, n: countOf(c.id) }));
}

const EMPTY_TEXT: Record<QueueStatus, string> = {
  pending: REVIEW_QUEUE_MESSAGES.emptyPending,
  published: REVIEW_QUEUE_MESSAGES.emptyPublished,
  hidden: REVIEW_QUEUE_MESSAGES.emptyHidden,
  all: REVIEW_QUEUE_MESSAGES.emptyAll,
};

const reviews = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'review' : 'reviews'}`;
const selectCls = 'h-10 rounded-md border border-stone-300 bg-white px-2 text-sm text-stone-900';

/** What the dialogs are open for: hiding one review or the selection, replying to one. */
type Asked = { kind: 'hide'; review: AdminReview } | { kind: 'hide-selected' } | { kind: 'reply'; review: AdminReview } | null;

/**
 * The owner's review queue (issue [6/8]): the reviews by status, with photos, by rating and by
 * product; each row shows the review as written, who wrote it and what they bought, and its
 * actions: Approve, Hide… (for a stated reason), Reply (once), Hide or Show its photos. A
 * selection is approved or hidden in one go.
 */
export function ReviewQueue() {
  const id = useId();
  const { filters, set } = useQueueFilters();
  const { productName, ...query } = filters;
  const list = useReviews(query);
  const { data } = list;
  const selection = useSelection();
  const act = useReviewAction();
  const bulk = useBulkReviews();
  const [asked, setAsked] = useState<Asked>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);

  const changeFilters = (changes: Parameters<typeof set>[0]) => {
    // A selection made under other filters would act on rows no longer in sight.
    selection.clear();
    set({ ...changes, page: 1 });
  };
  const close = () => {
    setAsked(null);
    setDialogError(null);
  };

  /** One action on one review, its toast, and the dialog closed (or its error shown in it). */
  const run = (review: AdminReview, action: ReviewAction, done: { title: string; description: string }) =>
    act.mutate(
      { id: review.id, action },
      {
        onSuccess: () => {
          close();
          toast(done);
        },
        onError: (err) => {
          if (asked) setDialogError(messageOf(err));
          else toast({ title: 'Error', description: messageOf(err), variant: 'destructive' });
        },
      },
    );

  const approve = (r: AdminReview) => run(r, { kind: 'approve' }, { title: 'Review approved', description: `“${r.title}” is published.` });
  const togglePhotos = (r: AdminReview) =>
    run(
      r,
      { kind: 'photos', hidden: !r.photosHidden },
      r.photosHidden
        ? { title: 'Photos shown', description: `Shoppers see the photos of “${r.title}” again.` }
        : { title: 'Photos hidden', description: `Shoppers no longer see the photos of “${r.title}”; its text stays.` },
    );
  const hideOne = (r: AdminReview, body: HideReviewInput) =>
    run(
      r,
      { kind: 'hide', body },
      { title: 'Review hidden', description: `“${r.title}” is hidden: ${REVIEW_HIDE_REASON_LABELS[body.reason]}.` },
    );
  const reply = (r: AdminReview, text: string) =>
    run(r, { kind: 'reply', text }, { title: 'Reply published', description: `Your reply shows under “${r.title}”.` });

  const n = selection.ids.length;
  const approveSelected = () =>
    bulk.mutate(
      { action: 'approve', ids: selection.ids },
      {
        onSuccess: (r) => {
          selection.clear();
          toast({
            title: 'Reviews approved',
            description: `${reviews(r.changed)} approved${r.changed < n ? ` of the ${n} selected (the others were already published)` : ''}.`,
          });
        },
        onError: (err) => toast({ title: 'Error approving reviews', description: messageOf(err), variant: 'destructive' }),
      },
    );
  const hideSelected = (body: HideReviewInput) =>
    bulk.mutate(
      { action: 'hide', ids: selection.ids, ...body },
      {
        onSuccess: (r) => {
          selection.clear();
          close();
          toast({
            title: 'Reviews hidden',
            description: `${reviews(r.changed)} hidden (${REVIEW_HIDE_REASON_LABELS[body.reason]})${r.changed < n ? ` of the ${n} selected (the others were already hidden)` : ''}.`,
          });
        },
        onError: (err) => setDialogError(messageOf(err)),
      },
    );

  const columns: Column<AdminReview>[] = [
    { header: 'Review', primary: true, className: 'md:min-w-72 md:max-w-md', cell: (r) => <ReviewContent review={r} /> },
    { header: 'Author', className: 'md:min-w-40 md:max-w-56', cell: (r) => <ReviewAuthor review={r} /> },
    { header: 'Product', className: 'md:min-w-36 md:max-w-48', cell: (r) => <ReviewProduct review={r} /> },
    { header: 'Written', cell: (r) => <ReviewDate review={r} /> },
    { header: 'Status', cell: (r) => <ReviewStatusBadge review={r} /> },
  ];

  const clearFilters = () => changeFilters({ photos: null, rating: null, product: null, productName: null });
  const filtered = filters.withPhotos || filters.rating !== null || filters.productId !== '';
  const picked = filters.productId
    ? { id: filters.productId, name: productName || data?.items[0]?.product.name || filters.productId }
    : null;

  return (
    <div className="flex min-w-0 flex-col">
      <StatusChips chips={statusChips(data?.counts)} selected={filters.status} onSelect={(status) => changeFilters({ status })} />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-rating`} className="text-sm font-medium text-stone-900">
            Rating
          </label>
          <select
            id={`${id}-rating`}
            className={selectCls}
            value={filters.rating ?? ''}
            onChange={(e) => changeFilters({ rating: e.target.value || null })}
          >
            <option value="">Any rating</option>
            {[5, 4, 3, 2, 1].map((s) => (
              <option key={s} value={s}>
                {s} {s === 1 ? 'star' : 'stars'}
              </option>
            ))}
          </select>
        </div>
        <ProductFilter
          id={`${id}-product`}
          picked={picked}
          onPick={(p) => changeFilters({ product: p.id, productName: p.name })}
          onClear={() => changeFilters({ product: null, productName: null })}
        />
        <label className="flex h-10 items-center gap-2 text-sm font-medium text-stone-900">
          <input
            type="checkbox"
            className="h-5 w-5 accent-brand-600"
            checked={filters.withPhotos}
            onChange={(e) => changeFilters({ photos: e.target.checked ? 'with' : null })}
          />
          With photos
        </label>
        {filtered && (
          <Button variant="ghost" className="self-start sm:self-auto" onClick={clearFilters}>
            Clear filters
          </Button>
        )}
      </div>
      <PagedList
        query={list}
        skeleton={<RowsSkeleton label="Loading reviews" rows={4} bars={['h-4 w-24', 'h-4 w-64 max-w-full', 'h-4 w-full', 'h-4 w-40']} />}
        isEmpty={(d) => d.items.length === 0}
        empty={
          <div className="flex flex-col items-center gap-2">
            <p className="font-medium text-stone-900">{EMPTY_TEXT[filters.status]}</p>
            {filtered && (
              <>
                <p className="text-sm">{REVIEW_QUEUE_MESSAGES.emptyFiltered}</p>
                <Button variant="outline" onClick={clearFilters}>
                  Clear filters
                </Button>
              </>
            )}
          </div>
        }
        count={(d) => reviews(d.total)}
        totalPages={(d) => Math.max(1, Math.ceil(d.total / d.pageSize))}
        onPage={(page) => set({ page })}
      >
        {(d) => (
          <>
            <BulkBar count={n} noun={['review', 'reviews']} onClear={selection.clear}>
              <Button size="sm" disabled={bulk.isPending || n > BULK_MAX} onClick={approveSelected}>
                {bulk.isPending && bulk.variables.action === 'approve' ? 'Approving…' : 'Approve selected'}
              </Button>
              <Button
                size="sm"
                variant="outline"
                disabled={bulk.isPending || n > BULK_MAX}
                onClick={() => setAsked({ kind: 'hide-selected' })}
              >
                Hide selected…
              </Button>
            </BulkBar>
            <SelectPageBox selection={selection} ids={d.items.map((r) => r.id)} busy={list.isPlaceholderData} />
            <DataTable
              caption="Reviews, newest first"
              rows={d.items}
              rowKey={(r) => r.id}
              columns={[
                selectColumn(
                  selection,
                  d.items,
                  (r) => r.id,
                  {
                    all: 'Select all reviews on this page',
                    row: (r) => `Select the review “${r.title}” by ${r.displayName}`,
                  },
                  list.isPlaceholderData,
                ),
                ...columns,
              ]}
              busy={list.isPlaceholderData}
              dense
              actions={(r) => (
                <RowActions
                  review={r}
                  busy={act.isPending && act.variables.id === r.id}
                  onApprove={() => approve(r)}
                  onHide={() => setAsked({ kind: 'hide', review: r })}
                  onReply={() => setAsked({ kind: 'reply', review: r })}
                  onPhotos={() => togglePhotos(r)}
                />
              )}
            />
          </>
        )}
      </PagedList>
      <HideReviewDialog
        open={asked?.kind === 'hide' || asked?.kind === 'hide-selected'}
        title={asked?.kind === 'hide-selected' ? `Hide ${reviews(n)}?` : 'Hide this review?'}
        subject={
          asked?.kind === 'hide'
            ? `“${asked.review.title}” by ${asked.review.displayName}, ${asked.review.rating} of 5 stars`
            : `${reviews(n)} selected`
        }
        what={asked?.kind === 'hide-selected' ? `Hide ${reviews(n)}` : 'Hide review'}
        busy={act.isPending || bulk.isPending}
        error={dialogError}
        onConfirm={(body) => {
          if (asked?.kind === 'hide') hideOne(asked.review, body);
          else if (asked?.kind === 'hide-selected') hideSelected(body);
        }}
        onClose={close}
      />
      <ReplyDialog
        review={asked?.kind === 'reply' ? asked.review : null}
        busy={act.isPending}
        error={dialogError}
        onSend={(text) => asked?.kind === 'reply' && reply(asked.review, text)}
        onClose={close}
      />
    </div>
  );
}

/** A row's actions, each offered only where it applies; the review's title completes their names. */
function RowActions({
  review: r,
  busy,
  onApprove,
  onHide,
  onReply,
  onPhotos,
}: {
  review: AdminReview;
  busy: boolean;
  onApprove: () => void;
  onHide: () => void;
  onReply: () => void;
  onPhotos: () => void;
}) {
  const of = `the review “${r.title}” by ${r.displayName}`;
  return (
    <div className="flex flex-wrap gap-1 md:w-32 md:flex-col md:items-stretch">
      {r.status !== 'published' && (
        <Button size="sm" disabled={busy} onClick={onApprove} aria-label={`Approve ${of}`}>
          Approve
        </Button>
      )}
      {r.status !== 'hidden' && (
        <Button size="sm" variant="outline" disabled={busy} onClick={onHide} aria-label={`Hide ${of}`}>
          Hide…
        </Button>
      )}
      {!r.reply && (
        <Button size="sm" variant="ghost" disabled={busy} onClick={onReply} aria-label={`Reply to ${of}`}>
          Reply
        </Button>
      )}
      {r.photos.length > 0 && (
        <Button
          size="sm"
          variant="ghost"
          disabled={busy}
          onClick={onPhotos}
          aria-label={`${r.photosHidden ? 'Show' : 'Hide'} photos of ${of}`}
        >
          {r.photosHidden ? 'Show photos' : 'Hide photos'}
        </Button>
      )}
    </div>
  );
}
