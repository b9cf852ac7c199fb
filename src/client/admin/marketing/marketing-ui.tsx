import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { addDays, localDateOf } from '../../../shared/shop-time.js';
import { formatCents } from '../../../shared/money.js';
import { withParams } from '../components/search-params.js';

/** What the Marketing tab's two lists share: the period presets in the address, the order links, the rates. */
const PRESETS = [
  { id: '7', label: 'Last 7 days', days: 7 },
  { id: '30', label: 'Last 30 days', days: 30 },
  { id: '90', label: 'Last 90 days', days: 90 },
  { id: '365', label: 'Last 12 months', days: 365 },
] as const;
const DEFAULT_PRESET = '30';

/** Today in this browser's calendar (the server counts the shop's days; at most a day apart). */
function today(): string {
  return localDateOf(Date.now(), Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/**
 * The period of the last N days, its preset kept in the address under `param` (so reload and Back
 * keep it); `pick` changes it and drops the other `reset` parameters (a page number).
 */
export function usePresetPeriod(param: string, reset: readonly string[] = []) {
  const [params, setParams] = useSearchParams();
  const preset = PRESETS.find((p) => p.id === (params.get(param) ?? DEFAULT_PRESET)) ?? PRESETS[1];
  const to = today();
  const pick = (id: string) => {
    const next = withParams(params, { period: param }, { period: id === DEFAULT_PRESET ? null : id });
    for (const r of reset) next.delete(r);
    setParams(next, { replace: true });
  };
  return { preset: preset.id, from: addDays(to, 1 - preset.days), to, pick };
}

export function PresetPeriodSelect({ value, onPick }: { value: string; onPick: (id: string) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-stone-900">
        Period
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onPick(e.target.value)}
        className="h-10 rounded-md border border-stone-300 bg-white px-2 text-sm"
      >
        {PRESETS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
      </select>
    </div>
  );
}

const orderPath = (id: string) => `/admin?tab=orders&view=details&order=${encodeURIComponent(id)}`;

/** "#AB12CD34", to the order in the Orders tab. */
export function OrderLink({ id, number }: { id: string; number: string }) {
  return (
    <Link to={orderPath(id)} className="text-brand-800 underline-offset-2 hover:underline">
      #{number}
    </Link>
  );
}

/** The order that followed (a recovery's, a reminder's) with its amount, or a dash. */
export function FollowedOrder({ id, number, cents }: { id: string | null; number: string | null; cents: number | null }) {
  if (!id) return <span className="text-stone-500">—</span>;
  return (
    <Link to={orderPath(id)} className="text-brand-800 underline-offset-2 hover:underline">
      #{number} · {formatCents(cents ?? 0)}
    </Link>
  );
}

/** A share as a whole percent ("—" of nothing). */
export const rate = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '—');
