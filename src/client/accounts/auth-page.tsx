import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Container } from '../ui/container.js';
import { tabIds, Tabs } from '../ui/tabs.js';
import { toast } from '../ui/toast.js';
import { useSession } from '../lib/get-session.js';
import { useConfirmSignInLink } from './api/sign-in-link.js';
import { SIGN_IN_LINK_MESSAGES } from '../lib/auth-schemas.js';
import { Card } from '../ui/form-controls.js';
import { errorMessage } from '../lib/error-message.js';
import { safeRedirectPath } from '../lib/safe-redirect.js';
import { ResetForm, SignInForm, SignUpForm } from './auth-forms.js';

type Tab = 'signin' | 'signup' | 'reset';

const TABS: readonly { id: Tab; label: string }[] = [
  { id: 'signin', label: 'Sign In' },
  { id: 'signup', label: 'Sign Up' },
  { id: 'reset', label: 'Reset' },
];

function toTab(value: string | null): Tab {
  return value === 'signup' || value === 'reset' ? value : 'signin';
}

export default function AuthPage() {
  const [params, setParams] = useSearchParams();
  const tab = toTab(params.get('tab'));
  const redirectTo = safeRedirectPath(params.get('redirect'));
  const navigate = useNavigate();
  const { user, isLoading } = useSession();
  const baseId = useId();
  const linkNotice = useSignInLinkFromAddress();

  // Someone already signed in when the page opens has nothing to do here. Only the first answer
  // counts: after signing in on this page, the form itself says welcome and moves on.
  const checked = useRef(false);
  useEffect(() => {
    if (checked.current || isLoading) return;
    checked.current = true;
    if (!user) return;
    toast({ title: `Logged in as: ${user.role} (${user.email})` });
    void navigate(redirectTo, { replace: true });
  }, [isLoading, user, navigate, redirectTo]);

  const selectTab = (next: Tab, focus = false) => {
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        p.set('tab', next);
        return p;
      },
      { replace: true },
    );
    if (focus) document.getElementById(tabIds(baseId, next).tab)?.focus();
  };

  // Signing in here: the form decides where to go next, not the "already signed in" check.
  const claimNavigation = () => {
    checked.current = true;
  };

  const done = (title: string, description: string) => {
    toast({ title, description });
    void navigate(redirectTo, { replace: true });
  };

  return (
    <Container className="flex justify-center py-10 sm:py-16">
      <Card className="w-full max-w-md">
        <h1 className="mb-6 text-center text-2xl font-bold text-stone-900">Welcome</h1>
        <Tabs
          label="Account"
          tabs={TABS}
          selected={tab}
          onSelect={(next) => selectTab(next)}
          idPrefix={baseId}
          listClassName="mb-6 grid grid-cols-3 gap-1 rounded-lg bg-stone-100 p-1"
          tabClassName={tabClass}
          beforePanel={linkNotice && <LinkNoticeLine notice={linkNotice} />}
        >
          {/* Keyed by tab: a tab change clears the error and restarts the form timer. */}
          {tab === 'signin' && (
            <SignInForm
              // A confirmed sign-in link fills in its account's address.
              key={`signin-${linkNotice?.email ?? ''}`}
              initialEmail={linkNotice?.email ?? ''}
              onStart={claimNavigation}
              onForgot={() => selectTab('reset', true)}
              onDone={() => done('Welcome back!', 'You have successfully signed in.')}
            />
          )}
          {tab === 'signup' && (
            <SignUpForm
              key="signup"
              onStart={claimNavigation}
              onDone={() => done('Welcome!', 'Your account has been created successfully.')}
            />
          )}
          {tab === 'reset' && <ResetForm key="reset" onBack={() => selectTab('signin', true)} />}
        </Tabs>
      </Card>
    </Container>
  );
}

const tabClass = (selected: boolean) =>
  `rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${
    selected ? 'bg-white text-stone-900 shadow-sm' : 'text-stone-700 hover:text-stone-900'
  }`;

type LinkNotice = { kind: 'checking' | 'confirmed' | 'error'; text: string; email?: string };

function LinkNoticeLine({ notice }: { notice: LinkNotice }) {
  return (
    <p
      role={notice.kind === 'error' ? 'alert' : 'status'}
      className={`mb-4 rounded-md px-3 py-2 text-sm ${notice.kind === 'error' ? 'bg-red-50 text-red-800' : 'bg-brand-50 font-medium text-brand-900'}`}
    >
      {notice.text}
    </p>
  );
}

/**
 * A sign-in link opened in this browser (`?deviceToken=`, decision 0040): the token leaves the
 * address bar at once, the server gives this browser its device cookie, and the page says so.
 */
function useSignInLinkFromAddress(): LinkNotice | null {
  const [params, setParams] = useSearchParams();
  const initialToken = params.get('deviceToken');
  const pending = useRef(initialToken);
  const [notice, setNotice] = useState<LinkNotice | null>(() =>
    initialToken ? { kind: 'checking', text: SIGN_IN_LINK_MESSAGES.checking } : null,
  );
  const { mutate: confirm } = useConfirmSignInLink();
  useEffect(() => {
    const token = pending.current;
    if (!token) return;
    pending.current = null;
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        p.delete('deviceToken');
        p.set('tab', 'signin');
        return p;
      },
      { replace: true },
    );
    confirm(
      { token },
      {
        onSuccess: ({ email }) => setNotice({ kind: 'confirmed', text: SIGN_IN_LINK_MESSAGES.confirmed(email), email }),
        onError: (err) => setNotice({ kind: 'error', text: errorMessage(err, SIGN_IN_LINK_MESSAGES.invalid) }),
      },
    );
  }, [confirm, setParams]);
  return notice;
}
