/**
 * An account made for a guest who subscribed (issue [4/8]; accounts/subscriber-accounts.ts) has no
 * password until its owner sets one: its stored hash is this prefix and a random token, which no
 * password matches (it is not an argon2 hash). Beneath the modules: orders/ reads it too (the
 * browser that placed such an account's first order still sees that order; orders/service.ts).
 */
export const NO_PASSWORD_PREFIX = '!no-password:';

export const isPasswordless = (passwordHash: string): boolean => passwordHash.startsWith(NO_PASSWORD_PREFIX);
