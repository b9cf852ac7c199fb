import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../lib/error-message.js';
import { paths } from '../lib/paths.js';
import { Alert } from './alert.js';
import { Button, buttonClasses } from './button.js';

/**
 * The two states of an e-mail's "stop these" page (review requests, offers and reminders): the
 * question with its one button, and, once pressed (or already), what now holds.
 */
export function OptOutPanel({
  done,
  doneText,
  doneNote,
  question,
  buttonLabel,
  pending,
  error,
  onPress,
}: {
  done: boolean;
  doneText: string;
  doneNote?: ReactNode;
  question: ReactNode;
  buttonLabel: string;
  pending: boolean;
  error: unknown;
  onPress: () => void;
}) {
  if (done)
    return (
      <>
        <p role="status" className="rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 font-medium text-brand-900">
          {doneText}
        </p>
        {doneNote && <p className="text-sm text-stone-700">{doneNote}</p>}
        <Link to={paths.products} className={buttonClasses('outline', 'md', 'self-start')}>
          Continue shopping
        </Link>
      </>
    );
  return (
    <>
      <p className="text-stone-700">{question}</p>
      {error ? <Alert variant="destructive" title={errorMessage(error, 'Something went wrong. Please try again.')} /> : null}
      <Button size="lg" className="self-start" disabled={pending} aria-busy={pending} onClick={onPress}>
        {pending ? 'Saving...' : buttonLabel}
      </Button>
    </>
  );
}
