import '../../lib/zod-config.js';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { forgetUserData, sessionQueryKey, useSession } from '../../accounts/api/get-session.js';
import { Button } from '../../ui/button.js';
import { toast } from '../../ui/toast.js';
import { adminGet, adminSend, messageOf, logUnexpected } from '../api/admin-api.js';
import { AdminUserPage, UserResponse, type AdminUser } from '../api/admin-schemas.js';
import { formatDate, inputCls, ListState, PageNav, Panel, Switch, td, th } from '../components/admin-ui.js';

const PAGE_SIZE = 20;
const KEY = ['admin', 'users'] as const;
const ImpersonationResponse = z.object({ ok: z.literal(true) });

type Patch = { emailVerified?: boolean; role?: 'admin' | 'client'; loyaltyPoints?: number };

function usePatchUser() {
  const qc = useQueryClient();
  return useMutation({
    onError: logUnexpected,
    mutationFn: ({ id, patch }: { id: string; patch: Patch }) => adminSend('PATCH', `/api/admin/users/${encodeURIComponent(id)}`, UserResponse, patch),
    onSettled: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}

function PointsEditor({ user }: { user: AdminUser }) {
  const patch = usePatchUser();
  const [text, setText] = useState(String(user.loyaltyPoints));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const n = Math.max(0, Math.trunc(Number(text)));
    if (!Number.isFinite(n)) return;
    patch.mutate(
      { id: user.id, patch: { loyaltyPoints: n } },
      {
        onSuccess: (r) => {
          setText(String(r.user.loyaltyPoints));
          toast({ title: 'Loyalty Points Updated', description: `${r.user.email} now has ${r.user.loyaltyPoints} points.` });
        },
        onError: (err) => toast({ title: 'Error', description: messageOf(err), variant: 'destructive' }),
      },
    );
  };
  return (
    <form onSubmit={onSubmit} className="flex items-center gap-1.5">
      <input
        type="number"
        min="0"
        step="1"
        inputMode="numeric"
        aria-label={`Loyalty points of ${user.email}`}
        className={inputCls.replace('w-full', 'w-24')}
        value={text}
        disabled={patch.isPending}
        onChange={(e) => setText(e.target.value)}
      />
      <Button type="submit" size="sm" variant="outline" disabled={patch.isPending || text === String(user.loyaltyPoints)}>
        {patch.isPending ? 'Saving…' : 'Save'}
      </Button>
    </form>
  );
}

function UserRow({ user, meId, onImpersonate }: { user: AdminUser; meId: string | undefined; onImpersonate: (u: AdminUser) => void }) {
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
  const verified = pending?.emailVerified ?? user.emailVerified;
  const isAdmin = (pending?.role ?? user.role) === 'admin';
  return (
    <tr className="border-t border-stone-200">
      <td className={`${td} min-w-48`}>
        <span className="block font-medium text-stone-900">{user.fullName || '—'}</span>
        <span className="block break-all text-stone-700">{user.email}</span>
        <span className="block font-mono text-xs text-stone-600">{user.id}</span>
      </td>
      <td className={`${td} whitespace-nowrap`}>{formatDate(user.createdAt)}</td>
      <td className={td}>
        <Switch label={`Verified: ${user.email}`} checked={verified} disabled={patch.isPending} onChange={(v) => change({ emailVerified: v }, 'Email Verification Updated')} />
      </td>
      <td className={td}>
        <Switch
          label={`Admin: ${user.email}`}
          checked={isAdmin}
          disabled={patch.isPending || (user.id === meId && user.role === 'admin')}
          onChange={(v) => change({ role: v ? 'admin' : 'client' }, 'Role Updated')}
        />
      </td>
      <td className={td}>
        <PointsEditor key={user.loyaltyPoints} user={user} />
        <span className="mt-1 block text-xs text-stone-600">{user.totalPointsEarned} earned in total</span>
      </td>
      <td className={td}>
        {user.role !== 'admin' && (
          <Button size="sm" variant="ghost" onClick={() => onImpersonate(user)} aria-label={`Impersonate ${user.email}`}>
            Impersonate
          </Button>
        )}
      </td>
    </tr>
  );
}

export default function UsersTab() {
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
            <div className="overflow-x-auto" aria-busy={isPlaceholderData}>
              <table className="w-full border-collapse">
                <caption className="sr-only">Users</caption>
                <thead className="bg-stone-50">
                  <tr>
                    <th scope="col" className={th}>User</th>
                    <th scope="col" className={th}>Joined</th>
                    <th scope="col" className={th}>Verified</th>
                    <th scope="col" className={th}>Admin</th>
                    <th scope="col" className={th}>Loyalty points</th>
                    <th scope="col" className={th}>Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((u) => (
                    <UserRow key={u.id} user={u} meId={me?.id} onImpersonate={onImpersonate} />
                  ))}
                </tbody>
              </table>
            </div>
            <PageNav page={page} totalPages={data.totalPages} onPage={setPage} busy={isFetching} />
          </>
        )}
      </ListState>
    </Panel>
  );
}
