import '../../lib/zod-config.js';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminGet } from '../api/admin-api.js';
import { SUBSCRIPTIONS_KEY } from './get-subscriptions.js';
import { SubscriptionFigures, type FiguresCsvName, type FiguresPeriod } from '../../../shared/schemas/admin/subscription-figures.js';

/**
 * What the panel asks for, cut by day, week or month: the last `days` of the shop's days, or from
 * one date to another, or neither (the server's last 12 months, this one included).
 */
export type FiguresRequest = { period: FiguresPeriod; days?: number; from?: string; to?: string };

function queryOf(r: FiguresRequest): Record<string, string | number | undefined> {
  return { period: r.period, days: r.days, from: r.from, to: r.to };
}

/** GET /api/admin/subscriptions/figures: subscribers now, revenue, new, paused and cancelled, reasons and retention. */
export function getFiguresQueryOptions(r: FiguresRequest) {
  return queryOptions({
    // Under the tab's key: a cancellation (which refreshes the list) refreshes the figures too.
    queryKey: [...SUBSCRIPTIONS_KEY, 'figures', r] as const,
    queryFn: ({ signal }) => adminGet('/api/admin/subscriptions/figures', SubscriptionFigures, queryOf(r), signal),
    staleTime: 0,
  });
}

export function useFigures(r: FiguresRequest) {
  return useQuery({ ...getFiguresQueryOptions(r), placeholderData: keepPreviousData });
}

/** A figure's CSV for the dates the server answered with (the shop's days), so the file matches the screen. */
export function figuresCsvUrl(name: FiguresCsvName, answered: { from: string; to: string; period: FiguresPeriod }): string {
  const q = new URLSearchParams({ from: answered.from, to: answered.to, period: answered.period });
  return `/api/admin/subscriptions/figures/${name}.csv?${q}`;
}
