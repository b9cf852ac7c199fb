import { z } from 'zod';

/** What the verification page, the account page, the server and the tests say about verifying an e-mail. */
export const VERIFY_MESSAGES = {
  verified: 'Your email address is verified.',
  alreadyVerified: 'This email address is already verified.',
  linkedOrders: (n: number) =>
    `${n} earlier ${n === 1 ? 'order' : 'orders'} placed with this address ${n === 1 ? 'is' : 'are'} now in your account.`,
  missingToken: 'This verification link is incomplete. Open the link from the e-mail again, or send a new one from your account page.',
  unknownToken: 'This verification link is not valid. Send a new one from your account page.',
  usedToken: 'This verification link has already been used. Send a new one from your account page if your address is not verified yet.',
  expiredToken: 'This verification link has expired. Send a new one from your account page.',
  emailChanged: 'This link was sent to an address the account no longer uses. Send a new one from your account page.',
  sent: (email: string) => `We sent a verification link to ${email}. It works once, for 24 hours.`,
  notVerifiedYet: 'Your email address is not verified yet. Verify it to see orders you placed as a guest with this address.',
  tooManyResends: 'You have asked for several verification e-mails already. Please wait 15 minutes and try again.',
} as const;

/** The token from the link's `?token=`, as the page sends it. Its shape is checked by the server, to answer in words. */
export const VerifyEmailInput = z
  .object({ token: z.string({ message: VERIFY_MESSAGES.missingToken }).trim().max(200, VERIFY_MESSAGES.unknownToken) })
  .strict();
export type VerifyEmailInput = z.infer<typeof VerifyEmailInput>;

export type VerifyEmailResponse = { status: 'verified' | 'already-verified'; message: string; linkedOrders: number };
