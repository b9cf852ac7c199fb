import '../../lib/zod-config.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { LoyaltyAdjustmentForm } from '../../../shared/schemas/admin/users.js';
import { adjustedBalance, LOYALTY_MESSAGES, type LoyaltyAdjustmentInput } from '../../../shared/schemas/admin/users.js';
import { Button } from '../../ui/button.js';
import { Dialog } from '../../ui/dialog.js';
import { toast } from '../../ui/toast.js';
import { adminSend, logUnexpected, messageOf } from '../api/admin-api.js';
import { UserResponse, type AdminUser } from '../api/admin-schemas.js';
import { Field, inputCls } from '../components/admin-ui.js';

const n = (v: number) => v.toLocaleString('en-US');

type Adjustment = { change: 'add' | 'remove'; points: number; reason: string };

function useAdjustPoints() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: ({ id, body }: { id: string; body: LoyaltyAdjustmentInput }) =>
      adminSend('POST', `/api/admin/users/${encodeURIComponent(id)}/loyalty-adjustments`, UserResponse, body),
    onSettled: () => qc.invalidateQueries({ queryKey: ['admin', 'users'] }),
  });
}

/**
 * A customer's points, changed only by an explicit adjustment: add or remove N with a reason, then
 * a second step showing the balance it leaves, and only "Confirm" saves (Enter never does on its own).
 */
export function PointsAdjuster({ user }: { user: AdminUser }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="flex items-center gap-2">
      <span className="font-medium tabular-nums text-stone-900">{n(user.loyaltyPoints)}</span>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)} aria-label={`Adjust the loyalty points of ${user.email}`}>
        Adjust
      </Button>
      {open && <AdjustDialog user={user} onClose={() => setOpen(false)} />}
    </div>
  );
}

function AdjustDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const id = useId();
  const adjust = useAdjustPoints();
  const [review, setReview] = useState<Adjustment | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors },
  } = useForm<LoyaltyAdjustmentForm, unknown, LoyaltyAdjustmentInput>({
    resolver: zodResolver(LoyaltyAdjustmentForm),
    defaultValues: { change: 'add', points: '', reason: '' },
  });
  const typed = useWatch({ control });
  const count = /^\s*\d+\s*$/.test(typed.points ?? '') ? Number(typed.points) : null;
  const preview = count && count > 0 ? adjustedBalance(user.loyaltyPoints, { change: typed.change ?? 'add', points: count }) : null;

  // Enter (or "Review") only moves to the confirmation step.
  const toReview = handleSubmit((v) => {
    const next = adjustedBalance(user.loyaltyPoints, v);
    if (!next.ok) return setError('points', { message: next.message });
    setServerError(null);
    setReview({ change: v.change, points: v.points, reason: v.reason.trim() });
  });

  const confirm = () => {
    if (!review) return;
    adjust.mutate(
      { id: user.id, body: { ...review, fromBalance: user.loyaltyPoints } },
      {
        onSuccess: (r) => {
          toast({ title: LOYALTY_MESSAGES.saved, description: `${r.user.email} now has ${n(r.user.loyaltyPoints)} points.` });
          onClose();
        },
        onError: (err) => {
          setServerError(messageOf(err));
          setReview(null);
        },
      },
    );
  };

  const after = review ? adjustedBalance(user.loyaltyPoints, review) : null;

  return (
    <Dialog open onClose={onClose} title={`Adjust loyalty points: ${user.email}`}>
      {review && after?.ok ? (
        <div className="flex flex-col gap-4">
          <p className="text-sm text-stone-800">
            {review.change === 'add' ? 'Add' : 'Remove'} <strong>{n(review.points)}</strong> points{' '}
            {review.change === 'add' ? 'to' : 'from'} {user.email}?
          </p>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-stone-600">Balance now</dt>
            <dd className="tabular-nums text-stone-900">{n(user.loyaltyPoints)} points</dd>
            <dt className="text-stone-600">After saving</dt>
            <dd className="font-semibold tabular-nums text-stone-900" data-testid="points-after">
              {n(after.balance)} points
            </dd>
            <dt className="text-stone-600">Reason</dt>
            <dd className="break-words text-stone-900">{review.reason}</dd>
          </dl>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" onClick={() => setReview(null)} disabled={adjust.isPending}>
              Back
            </Button>
            <Button onClick={confirm} disabled={adjust.isPending}>
              {adjust.isPending ? 'Saving…' : `Confirm: ${n(after.balance)} points`}
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={(e) => void toReview(e)} noValidate className="flex flex-col gap-4">
          <p className="text-sm text-stone-700">
            Balance now: <strong className="tabular-nums text-stone-900">{n(user.loyaltyPoints)} points</strong> (
            {n(user.totalPointsEarned)} earned in total).
          </p>
          {serverError && (
            <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
              {serverError}
            </p>
          )}
          <fieldset className="flex flex-wrap gap-4">
            <legend className="mb-1 text-sm font-medium text-stone-900">Change</legend>
            <label className="flex items-center gap-2 text-sm text-stone-900">
              <input type="radio" value="add" className="h-4 w-4 accent-brand-600" {...register('change')} />
              Add points
            </label>
            <label className="flex items-center gap-2 text-sm text-stone-900">
              <input type="radio" value="remove" className="h-4 w-4 accent-brand-600" {...register('change')} />
              Remove points
            </label>
          </fieldset>
          <Field label="Points" required htmlFor={`${id}-points`} error={errors.points?.message}>
            <input
              id={`${id}-points`}
              inputMode="numeric"
              autoComplete="off"
              className={inputCls}
              aria-invalid={Boolean(errors.points)}
              aria-describedby={errors.points ? `${id}-points-error` : undefined}
              {...register('points')}
            />
          </Field>
          <Field label="Reason" required htmlFor={`${id}-reason`} error={errors.reason?.message} hint="Kept in the audit log.">
            <input
              id={`${id}-reason`}
              autoComplete="off"
              maxLength={200}
              className={inputCls}
              placeholder="e.g. Goodwill for a late parcel"
              aria-invalid={Boolean(errors.reason)}
              aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
              {...register('reason')}
            />
          </Field>
          <p className="text-sm text-stone-800" aria-live="polite">
            {preview === null
              ? 'Enter a number of points to see the new balance.'
              : preview.ok
                ? `New balance: ${n(preview.balance)} points`
                : preview.message}
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Review</Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
