import '../../lib/zod-config.js';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { PointsAdjuster } from './loyalty-adjustment.js';
import { forgetUserData, sessionQueryKey, useSession } from '../../lib/get-session.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { adminGet, adminSend, messageOf, logUnexpected } from '../api/admin-api.js';
import { AdminUserPage, UserResponse, type AdminUser } from '../api/admin-schemas.js';
import { formatDate } from '../../lib/format.js';
import { DataTable, inputCls, ListState, PageNav, Panel, Switch } from '../components/admin-ui.js';
import { SubTabs } from '../components/sub-tabs.js';
import { AuditLogPanel, withAuditFilters } from './audit-log-panel.js';

const PAGE_SIZE = 20;
const KEY = ['admin', 'users'] as const;
const ImpersonationResponse = z.object({ ok: z.literal(true) });

type Patch = { emailVerified?: boolean; role?: 'admin' | 'client'; loyaltyPoints?: number };

function usePatchUser() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: ({ id, patch }: { id: string; patch: Patch }) =>
      adminSend('PATCH', `/api/admin/users/${encodeURIComponent(id)}`, UserResponse, patch),
    onSettled: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}

/** One of the per-user switches (verified, admin); each keeps its own pending state. */
function UserSwitch({ user, kind, meId }: { user: AdminUser; kind: 'verified' | 'admin'; meId: string | undefined }) {
  const patch = usePatchUser();
  const pending = patch.isPending ? patch.variables.patch : undefined;
  const change = (p: Patch, title: string) =>
    patch.mutate(
      { id: user.id, patch: p },
      {
        onSuccess: () => toast({ title, description: user.email }),
        onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
      },
    );
  if (kind === 'verified') {
    const verified = pending?.emailVerified ?? user.emailVerified;
    return (
      <Switch
        label={`Verified: ${user.email}`}
        checked={verified}
        disabled={patch.isPending}
        onChange={(v) => change({ emailVerified: v }, 'Email Verification Updated')}
      />
    );
  }
  const isAdmin = (pending?.role ?? user.role) === 'admin';
  return (
    <Switch
      label={`Admin: ${user.email}`}
      checked={isAdmin}
      disabled={patch.isPending || (user.id === meId && user.role === 'admin')}
      onChange={(v) => change({ role: v ? 'admin' : 'client' }, 'Role Updated')}
    />
  );
}

const VIEWS = [
  // Not "Users": the back office's own tab has that name.
  { id: 'users', label: 'All users' },
  { id: 'audit', label: 'Audit log' },
] as const;
type View = (typeof VIEWS)[number]['id'];

/** Users: the list (verified, admin, points, impersonation) and the audit log of what admins did (`?view=audit`). */
export default function UsersTab() {
  const [params, setParams] = useSearchParams();
  const view: View = params.get('view') === 'audit' ? 'audit' : 'users';
  const select = (next: View) => {
    const p = new URLSearchParams(params);
    if (next === 'users') p.delete('view');
    else p.set('view', next);
    setParams(p);
  };
  return (
    <SubTabs label="Users sections" tabs={VIEWS} selected={view} onSelect={select}>
      {view === 'users' ? <UserList onHistory={(u) => setParams(withAuditFilters(params, { user: u.email }))} /> : <AuditLogPanel />}
    </SubTabs>
  );
}

function UserList({ onHistory }: { onHistory: (u: AdminUser) => void }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { user: me } = useSession();
  const [page, setPage] = useState(1);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const { data, error, isPending, isFetching, refetch, isPlaceholderData } = useQuery({
    queryKey: [...KEY, { page, search }] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/users', AdminUserPage, { page, pageSize: PAGE_SIZE, search }, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const impersonate = useMutation({
    onError: logUnexpected,
    mutationFn: (userId: string) => adminSend('POST', '/api/impersonation', ImpersonationResponse, { userId }),
  });

  const onImpersonate = (u: AdminUser) =>
    impersonate.mutate(u.id, {
      onSuccess: () => {
        void navigate('/');
        forgetUserData(qc);
        void qc.invalidateQueries({ queryKey: sessionQueryKey });
        toast({ title: 'Impersonation active', description: 'You are now viewing the app as another user.' });
      },
      onError: (err) => toast({ title: 'Impersonation failed', description: messageOf(err), variant: 'destructive' }),
    });

  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    setSearch(searchText.trim());
    setPage(1);
  };

  return (
    <Panel title="Users">
      <form role="search" onSubmit={onSearch} className="mb-4 flex gap-2">
        <label htmlFor="user-search" className="sr-only">
          Search users
        </label>
        <input
          id="user-search"
          type="search"
          className={inputCls}
          placeholder="Search by e-mail, name or ID"
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
        />
        <Button type="submit" variant="outline">
          Search
        </Button>
        {/* Every customer as CSV (GET /api/admin/exports/customers.csv). */}
        <a
          href="/api/admin/exports/customers.csv"
          download
          aria-label="Export CSV"
          className="inline-flex h-10 shrink-0 items-center justify-center rounded-md border border-brand-600 bg-white px-3 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 sm:px-4"
        >
          <span className="sm:hidden">CSV</span>
          <span className="hidden sm:inline">Export CSV</span>
        </a>
      </form>
      <ListState
        isPending={isPending}
        error={error && !data ? error : null}
        onRetry={() => void refetch()}
        loadingLabel="Loading users"
        isEmpty={data?.items.length === 0}
        empty={<p>{search ? 'No users found matching your search.' : 'No users yet.'}</p>}
      >
        {data && (
          <>
            <DataTable
              caption="Users"
              rows={data.items}
              rowKey={(u) => u.id}
              busy={isPlaceholderData}
              columns={[
                {
                  header: 'User',
                  primary: true,
                  className: 'md:min-w-48',
                  cell: (u) => (
                    <>
                      <span className="block font-medium text-stone-900">{u.fullName || '—'}</span>
                      <span className="block break-all text-stone-700">{u.email}</span>
                      <span className="block break-all font-mono text-xs text-stone-600">{u.id}</span>
                    </>
                  ),
                },
                { header: 'Joined', className: 'whitespace-nowrap', cell: (u) => formatDate(u.createdAt) },
                { header: 'Verified', cell: (u) => <UserSwitch user={u} kind="verified" meId={me?.id} /> },
                { header: 'Admin', cell: (u) => <UserSwitch user={u} kind="admin" meId={me?.id} /> },
                {
                  header: 'Loyalty points',
                  className: 'max-md:flex-wrap',
                  cell: (u) => (
                    <div className="flex flex-col items-end gap-1 md:items-start">
                      <PointsAdjuster user={u} />
                      <span className="block text-xs text-stone-600">{u.totalPointsEarned} earned in total</span>
                    </div>
                  ),
                },
              ]}
              actions={(u) => (
                <div className="flex flex-wrap gap-1 md:flex-nowrap">
                  <Button size="sm" variant="ghost" onClick={() => onHistory(u)} aria-label={`Audit history of ${u.email}`}>
                    History
                  </Button>
                  {/* Another admin cannot be impersonated (the server refuses it too). */}
                  {u.role !== 'admin' && (
                    <Button size="sm" variant="ghost" onClick={() => onImpersonate(u)} aria-label={`Impersonate ${u.email}`}>
                      Impersonate
                    </Button>
                  )}
                </div>
              )}
            />
            <PageNav page={page} totalPages={data.totalPages} onPage={setPage} busy={isFetching} />
          </>
        )}
      </ListState>
    </Panel>
  );
}
