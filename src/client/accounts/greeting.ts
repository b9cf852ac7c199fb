/** How long after signing up the dashboard still greets a newcomer rather than a returning customer. */
export const NEW_ACCOUNT_MS = 60 * 60_000;

/** "Welcome back" is for someone who has been here before, not for an account made minutes ago. */
export function dashboardGreeting(user: { fullName: string; createdAt: string }, now: number = Date.now()): string {
  const age = now - Date.parse(user.createdAt);
  return Number.isFinite(age) && age < NEW_ACCOUNT_MS ? `Welcome to EcoClean, ${user.fullName}!` : `Welcome back, ${user.fullName}!`;
}
