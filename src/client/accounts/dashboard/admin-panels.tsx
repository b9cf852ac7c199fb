import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { formatCents } from '../../../shared/money.js';
import { ACCOUNT_MESSAGES } from '../../../shared/schemas/account.js';
import { forgetUserData, sessionQueryKey } from '../../lib/get-session.js';
import { errorMessage } from '../../lib/error-message.js';
import { ApiError } from '../../lib/api-client.js';
import { paths } from '../../lib/paths.js';
import { capitalize, formatDate } from '../../lib/format.js';
import { Button } from '../../ui/button.js';
import { Skeleton } from '../../ui/skeleton.js';
import { toast } from '../../ui/toast.js';
import { startImpersonation, type AdminStatsResponse } from './api.js';
import { Panel } from './panel.js';

/** Every status the shop uses, so the rows add up to the orders counted ("Completed": paid at checkout). */
const STATUS_ROWS = [
  { key: 'pendingOrders', label: 'Pending', dot: 'bg-yellow-400' },
  { key: 'completedOrders', label: 'Completed', dot: 'bg-green-800' },
  { key: 'processingOrders', label: 'Processing', dot: 'bg-blue-500' },
  { key: 'shippedOrders', label: 'Shipped', dot: 'bg-purple-500' },
  { key: 'deliveredOrders', label: 'Delivered', dot: 'bg-green-500' },
  { key: 'cancelledOrders', label: 'Cancelled', dot: 'bg-red-500' },
] as const;

/** Orders by status and revenue, across the whole shop. */
export function AdminStatsPanel({ stats }: { stats: AdminStatsResponse['stats'] | undefined }) {
  return (
    <Panel title="Store Statistics">
      {!stats ? (
        <div className="flex flex-col gap-3" aria-hidden="true">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-6" />
          ))}
        </div>
      ) : (
        <dl className="flex flex-col gap-2 text-sm">
          {/* The owner's pile: paid and not yet shipped (completed or processing), linked to the list filtered so. */}
          <div className="flex items-center justify-between gap-3 rounded-md bg-orange-50 px-2 py-2">
            <dt className="font-medium text-orange-950">
              <Link to={`${paths.admin}?tab=orders&status=to_ship`} className="underline-offset-2 hover:underline">
                To ship (paid, not shipped)
              </Link>
            </dt>
            <dd className="text-lg font-bold text-orange-950" data-testid="admin-to-ship">
              {stats.toShipOrders}
            </dd>
          </div>
          {STATUS_ROWS.map((row) => (
            <div key={row.key} className="flex items-center justify-between gap-3 border-b border-stone-100 pb-2">
              <dt className="flex items-center gap-2 text-stone-700">
                <span aria-hidden="true" className={`h-2.5 w-2.5 rounded-full ${row.dot}`} />
                {row.label}
              </dt>
              <dd className="font-semibold text-stone-900">{stats[row.key]}</dd>
            </div>
          ))}
          <div className="flex items-center justify-between gap-3 pt-1">
            <dt className="font-medium text-stone-800">Revenue</dt>
            <dd className="text-lg font-bold text-brand-800" data-testid="admin-revenue">
              {formatCents(stats.revenueCents)}
            </dd>
          </div>
        </dl>
      )}
    </Panel>
  );
}

/** The 5 newest accounts; an admin may view the app as any non-admin among them. */
export function RecentUsersPanel({ users }: { users: AdminStatsResponse['recentUsers'] | undefined }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pendingId, setPendingId] = useState<string | null>(null);

  const impersonate = async (userId: string) => {
    setPendingId(userId);
    try {
      await startImpersonation(userId);
      toast({ title: 'Impersonation active', description: 'You are now viewing the app as another user.' });
      // From now on every answer is the customer's: drop the admin's cached data and learn who we are.
      forgetUserData(queryClient);
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      void navigate(paths.home);
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) {
        toast({ title: 'Access denied', description: ACCOUNT_MESSAGES.impersonationAdminsOnly, variant: 'destructive' });
      } else {
        toast({ title: 'Impersonation failed', description: errorMessage(err, '') || undefined, variant: 'destructive' });
      }
      setPendingId(null);
    }
  };

  return (
    <Panel title="Recent Users">
      {!users ? (
        <div className="flex flex-col gap-3" aria-hidden="true">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} className="h-10" />
          ))}
        </div>
      ) : users.length === 0 ? (
        <p className="text-sm text-stone-600">No users yet.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-stone-100">
          {users.map((u) => (
            <li key={u.id} className="flex items-center justify-between gap-3 py-3 first:pt-0 last:pb-0">
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium text-stone-900">{u.fullName || u.email}</p>
                <p className="truncate text-sm text-stone-600">{u.email}</p>
                <p className="text-xs text-stone-600">
                  {capitalize(u.role)} · Joined {formatDate(u.createdAt)}
                </p>
              </div>
              {u.role !== 'admin' && (
                <Button
                  variant="outline"
                  size="sm"
                  className="shrink-0"
                  disabled={pendingId !== null}
                  aria-label={`Impersonate ${u.email}`}
                  onClick={() => void impersonate(u.id)}
                >
                  {pendingId === u.id ? 'Starting...' : 'Impersonate'}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
