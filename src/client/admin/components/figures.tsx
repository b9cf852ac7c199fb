import { Component, type ReactNode } from 'react';
import { Alert } from '../../ui/alert.js';
import { Button } from '../../ui/button.js';
import { Skeleton } from '../../ui/skeleton.js';
import { messageOf } from '../api/admin-api.js';

/*
 * What the back office's figures panels share (the Orders overview, the Subscriptions and Reviews
 * figures): the Period picker, a headline number, the panel while it loads or failed to, and the
 * boundary round a lazily loaded chart.
 */

/**
 * "Period": the panel's presets, then "Custom dates" (`custom`), which shows the panel's
 * PeriodDates. The panel keeps its choice in the address.
 */
export function PeriodSelect({
  id,
  value,
  presets,
  onPick,
  className = 'h-10 rounded-md border border-stone-300 bg-white px-2 text-sm',
}: {
  id: string;
  /** A preset's id, or `custom`. */
  value: string;
  presets: readonly { id: string; label: string }[];
  onPick: (value: string) => void;
  className?: string;
}) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-stone-900">
        Period
      </label>
      <select id={id} value={value} onChange={(e) => onPick(e.target.value)} className={className}>
        {presets.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
        <option value="custom">Custom dates</option>
      </select>
    </div>
  );
}

/** A headline number with its label (and a note under it), in a panel's `<dl>`. */
export function Headline({ label, value, note, testId }: { label: string; value: ReactNode; note?: string | undefined; testId?: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-stone-200 bg-stone-50 px-3 py-3 sm:px-4" data-testid={testId}>
      <dt className="text-sm text-stone-700">{label}</dt>
      <dd className="mt-1 text-xl font-semibold break-words tabular-nums text-stone-900 sm:text-2xl">{value}</dd>
      {note && <dd className="mt-0.5 text-xs text-stone-700">{note}</dd>}
    </div>
  );
}

/**
 * A figures panel while its numbers load: read out as `label`, grey boxes where the `headlines` go
 * (laid out by `gridClassName`, as the panel's `<dl>` is), then `children` where its chart or table goes.
 */
export function FiguresSkeleton({
  label,
  headlines,
  gridClassName,
  children,
}: {
  label: string;
  headlines: number;
  gridClassName: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-4">
      <p role="status" className="sr-only">
        {label}
      </p>
      <div className={gridClassName}>
        {Array.from({ length: headlines }, (_, i) => (
          <Skeleton key={i} className="h-20" />
        ))}
      </div>
      {children}
    </div>
  );
}

/** A figures panel whose numbers did not come: the server's reason (else `fallback`) and Retry, held while it runs. */
export function FiguresLoadError({
  error,
  fallback,
  onRetry,
  busy,
}: {
  error: unknown;
  fallback: string;
  onRetry: () => void;
  busy: boolean;
}) {
  return (
    <Alert
      variant="destructive"
      title={messageOf(error, fallback)}
      action={
        <Button variant="outline" onClick={onRetry} disabled={busy}>
          Retry
        </Button>
      }
    />
  );
}

/**
 * Round a chart loaded in its own chunk: a chunk that failed to load says so (`title`) with Retry,
 * which asks the panel for a fresh lazy component (`onRetry`) and draws again.
 */
export class ChartBoundary extends Component<{ title: string; children: ReactNode; onRetry: () => void }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Alert
        variant="destructive"
        title={this.props.title}
        action={
          <Button
            variant="outline"
            onClick={() => {
              this.props.onRetry();
              this.setState({ failed: false });
            }}
          >
            Retry
          </Button>
        }
      />
    );
  }
}
