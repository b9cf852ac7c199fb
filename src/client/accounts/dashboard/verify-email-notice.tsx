import { useState } from 'react';
import type { SessionUser } from '../../../shared/schemas/auth.js';
import { VERIFY_MESSAGES } from '../../../shared/schemas/email-verification.js';
import { Button } from '../../ui/button.js';
import { errorMessage } from '../../lib/error-message.js';
import { useResendVerification } from '../api/verify-email.js';

/** Until the address is verified: why it matters (guest orders), and "Resend" for a new link. */
export function VerifyEmailNotice({ user }: { user: SessionUser }) {
  const resend = useResendVerification();
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  if (user.emailVerified) return null;
  const send = () => {
    setAnswer(null);
    resend.mutate(undefined, {
      onSuccess: (res) => setAnswer({ ok: true, text: res.message }),
      onError: (err) => setAnswer({ ok: false, text: errorMessage(err, 'Could not send the e-mail. Please try again.') }),
    });
  };
  return (
    <section
      aria-labelledby="verify-email-heading"
      className="flex flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50 p-5 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex flex-col gap-1">
        <h2 id="verify-email-heading" className="font-semibold text-stone-900">
          Verify your email address
        </h2>
        <p className="text-sm text-stone-800">{VERIFY_MESSAGES.notVerifiedYet}</p>
        <p role="status" className={answer ? (answer.ok ? 'text-sm text-brand-800' : 'text-sm text-red-800') : 'sr-only'}>
          {answer?.text}
        </p>
      </div>
      <Button variant="outline" onClick={send} disabled={resend.isPending} className="shrink-0">
        {resend.isPending ? 'Sending...' : 'Resend verification email'}
      </Button>
    </section>
  );
}
