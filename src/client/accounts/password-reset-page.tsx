import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../lib/paths.js';
import { buttonClasses } from '../ui/button.js';
import { Container } from '../ui/container.js';
import { MailIcon } from '../ui/icons.js';
import { PasswordResetRequestInput } from '../lib/auth-schemas.js';
import { Card } from '../ui/form-controls.js';
import { ResetRequestForm } from './reset-request-form.js';

const SENT_TEXT = 'Check your email for instructions to reset your password.';

export default function PasswordResetPage() {
  const [sent, setSent] = useState(false);
  return (
    <Container className="flex justify-center py-10 sm:py-16">
      <Card className="w-full max-w-md">
        {sent ? (
          <div className="flex flex-col items-center gap-4 text-center">
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
              <MailIcon size={24} />
            </span>
            <h1 className="text-2xl font-bold text-stone-900">Check your email</h1>
            <p className="text-stone-700">{SENT_TEXT}</p>
            <Link to={paths.auth} className={buttonClasses('outline', 'lg', 'w-full')}>
              Back to Login
            </Link>
          </div>
        ) : (
          <>
            <h1 className="mb-6 text-center text-2xl font-bold text-stone-900">Reset Password</h1>
            <ResetRequestForm
              schema={PasswordResetRequestInput}
              sentText={SENT_TEXT}
              label="Reset Password"
              pendingLabel="Resetting..."
              onSent={() => setSent(true)}
            />
            <p className="mt-6 text-center text-sm">
              <Link
                to={paths.auth}
                className="rounded font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                Back to Login
              </Link>
            </p>
          </>
        )}
      </Card>
    </Container>
  );
}
