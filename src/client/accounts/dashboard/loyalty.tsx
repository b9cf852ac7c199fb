import { formatCents } from '../../../shared/money.js';
import type { AccountSummary } from '../../../shared/schemas/account.js';
import { LOYALTY_REWARD_EVERY } from '../../../shared/pricing.js';
import { loyaltyRuleText } from '../../../shared/shop-facts.js';
import { formatDate } from '../../lib/format.js';
import { Panel } from './panel.js';

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex flex-col gap-0.5 rounded-lg bg-stone-50 p-3">
      <dt className="text-sm text-stone-600">{label}</dt>
      <dd className="text-xl font-bold text-stone-900" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** Points, lifetime points, progress to the next 15%-off coupon and the coupons earned so far. */
export function LoyaltyCard({ loyalty }: { loyalty: AccountSummary['loyalty'] }) {
  const earned = LOYALTY_REWARD_EVERY - loyalty.nextRewardAt;
  const percent = Math.round(Math.min(1, Math.max(0, loyalty.progress)) * 100);
  const rewardReady = loyalty.nextRewardAt === 0;
  return (
    <Panel title="Loyalty Program">
      <dl className="grid grid-cols-2 gap-3">
        <Figure label="Points" value={loyalty.points.toLocaleString('en-US')} testId="loyalty-points" />
        <Figure label="Total Earned" value={loyalty.totalEarned.toLocaleString('en-US')} testId="loyalty-total-earned" />
      </dl>

      <div className="mt-5 flex flex-col gap-2">
        <div className="flex items-center justify-between gap-2 text-sm">
          <span className="font-medium text-stone-800">Next reward</span>
          {rewardReady ? (
            <span className="rounded-full bg-brand-100 px-2.5 py-0.5 font-semibold text-brand-800">Reward available</span>
          ) : (
            <span className="text-stone-700" data-testid="loyalty-next-reward">
              {loyalty.nextRewardAt} points to next reward
            </span>
          )}
        </div>
        <div
          role="progressbar"
          aria-label="Progress to the next reward"
          aria-valuemin={0}
          aria-valuemax={LOYALTY_REWARD_EVERY}
          aria-valuenow={earned}
          aria-valuetext={`${earned} of ${LOYALTY_REWARD_EVERY} points`}
          className="h-3 w-full overflow-hidden rounded-full bg-stone-200"
        >
          <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
        </div>
        <p className="text-sm text-stone-600" data-testid="loyalty-rule">
          {loyaltyRuleText()}
        </p>
      </div>

      <div className="mt-5">
        <h3 className="mb-2 text-sm font-semibold text-stone-800">Your reward coupons</h3>
        {loyalty.rewards.length === 0 ? (
          <p className="text-sm text-stone-600">No reward coupons yet.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {loyalty.rewards.map((r) => (
              <li
                key={r.code}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-stone-200 px-3 py-2 text-sm"
              >
                <span className="font-mono font-semibold text-stone-900">{r.code}</span>
                <span className="text-stone-800">{r.discountPercent}% off</span>
                <span className="text-stone-600">{r.expiresAt ? `Expires ${formatDate(r.expiresAt)}` : 'No expiry'}</span>
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-semibold ${r.used ? 'bg-stone-200 text-stone-700' : 'bg-brand-100 text-brand-800'}`}
                >
                  {r.used ? 'Used' : 'Available'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Panel>
  );
}

export function ShoppingSummaryCard({ stats }: { stats: AccountSummary['stats'] }) {
  return (
    <Panel title="Shopping Summary">
      <dl className="flex flex-col divide-y divide-stone-100">
        {[
          ['Total Spent', formatCents(stats.totalSpentCents)],
          ['Average Order', formatCents(stats.averageOrderCents)],
          ['Items Purchased', stats.itemsPurchased.toLocaleString('en-US')],
        ].map(([label, value]) => (
          <div key={label} className="flex items-baseline justify-between gap-4 py-2.5 first:pt-0 last:pb-0">
            <dt className="text-stone-700">{label}</dt>
            <dd className="text-lg font-bold text-stone-900">{value}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}
