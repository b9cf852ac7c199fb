import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { forgetUserData, sessionQueryKey, useSession } from '../lib/get-session.js';
import { loadAuthSchemas } from '../lib/load-auth-schemas.js';
import { apiRequest } from '../lib/api-client.js';
import { paths } from '../lib/paths.js';
import { toast } from '../ui/toast.js';

/** Ends the impersonation; the admin stays signed in as themselves. */
async function endImpersonation(): Promise<void> {
  const schemas = await loadAuthSchemas();
  await apiRequest('/api/impersonation', () => schemas.OkResponse, { method: 'DELETE' });
}

/**
 * While an admin views the app as a customer: says so, names the admin, and offers the way back.
 * Reads only the cached session, so the server renders it exactly as the browser hydrates it.
 */
export function ImpersonationBanner() {
  const { user, impersonatorEmail } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [ending, setEnding] = useState(false);
  if (!impersonatorEmail) return null;

  const onExit = async () => {
    setEnding(true);
    toast({ title: 'Ending impersonation' });
    try {
      await endImpersonation();
      // Learn who is signed in now (the admin) before leaving, so /auth sees the admin.
      forgetUserData(queryClient);
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      void navigate(paths.auth);
    } catch {
      toast({ title: 'Error ending impersonation', variant: 'destructive' });
    } finally {
      setEnding(false);
    }
  };

  return (
    <div role="region" aria-label="Impersonation" className="border-b border-amber-300 bg-amber-100 text-amber-950">
      <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-2 text-sm sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
        <p>
          <span className="font-semibold">Viewing as {user?.email ?? 'another user'}.</span>{' '}
          <span>
            Signed in as admin <span className="font-semibold break-all">{impersonatorEmail}</span>.
          </span>
        </p>
        <button
          type="button"
          onClick={() => void onExit()}
          disabled={ending}
          className="inline-flex h-9 shrink-0 items-center justify-center rounded-md bg-amber-900 px-3 font-medium text-white hover:bg-amber-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900 disabled:opacity-60"
        >
          {ending ? 'Ending...' : 'Exit Impersonation'}
        </button>
      </div>
    </div>
  );
}
