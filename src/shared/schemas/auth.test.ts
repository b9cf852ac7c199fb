import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, AuthTabResetRequestForm, NewPasswordForm, newPasswordProblem, SignUpInput } from './auth.js';

describe('newPasswordProblem', () => {
  it('names the first rule a password breaks, in the spec order', () => {
    expect(newPasswordProblem('', '')).toBe(AUTH_MESSAGES.fillAllFields);
    expect(newPasswordProblem('Ab1', 'Ab1')).toBe(AUTH_MESSAGES.passwordMin);
    expect(newPasswordProblem('ABCDEFG1', 'ABCDEFG1')).toBe(AUTH_MESSAGES.passwordLower);
    expect(newPasswordProblem('abcdefg1', 'abcdefg1')).toBe(AUTH_MESSAGES.passwordUpper);
    expect(newPasswordProblem('Abcdefgh', 'Abcdefgh')).toBe(AUTH_MESSAGES.passwordNumber);
    expect(newPasswordProblem('Abcdefg1', 'Abcdefg2')).toBe(AUTH_MESSAGES.passwordsMismatch);
    expect(newPasswordProblem('Abcdefg1', 'Abcdefg1')).toBeNull();
  });
});

describe('SignUpInput', () => {
  it('requires every field and 8 characters', () => {
    expect(SignUpInput.safeParse({ fullName: '', email: 'a@b.co', password: 'x' }).error?.issues[0]?.message).toBe(
      AUTH_MESSAGES.requiredFields,
    );
    expect(SignUpInput.safeParse({ fullName: 'A', email: 'a@b.co', password: '1234567' }).error?.issues[0]?.message).toBe(
      AUTH_MESSAGES.passwordMin,
    );
  });
  it('normalises the e-mail', () => {
    expect(SignUpInput.parse({ fullName: 'A', email: '  Me@Example.COM ', password: '12345678' }).email).toBe('me@example.com');
  });
});

/** The issues a form schema reports, as [field, message]. */
function issuesOf(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): [string, string][] {
  return (result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]);
}

describe('AuthTabResetRequestForm', () => {
  it("says the reset tab's own text for an empty address, else the body's", () => {
    expect(issuesOf(AuthTabResetRequestForm.safeParse({ email: ' ', elapsedMs: 2000 }))).toEqual([
      ['email', AUTH_MESSAGES.resetEmailRequiredAuth],
    ]);
    expect(issuesOf(AuthTabResetRequestForm.safeParse({ email: 'nope', elapsedMs: 2000 }))).toEqual([
      ['email', AUTH_MESSAGES.invalidEmail],
    ]);
    expect(AuthTabResetRequestForm.parse({ email: ' Me@Example.com ', elapsedMs: 2000, website: '' })).toEqual({
      email: 'me@example.com',
      elapsedMs: 2000,
      website: '',
    });
  });
});

describe('NewPasswordForm', () => {
  const check = (password: string, confirmPassword: string) =>
    issuesOf(NewPasswordForm.safeParse({ token: 't', password, confirmPassword }));
  it('shows the one problem at the field it concerns', () => {
    expect(check('', '')).toEqual([['password', AUTH_MESSAGES.fillAllFields]]);
    expect(check('Abcdefg1', '')).toEqual([['confirmPassword', AUTH_MESSAGES.fillAllFields]]);
    expect(check('short', 'short')).toEqual([['password', AUTH_MESSAGES.passwordMin]]);
    expect(check('Abcdefg1', 'Abcdefg2')).toEqual([['confirmPassword', AUTH_MESSAGES.passwordsMismatch]]);
    expect(check('Abcdefg1', 'Abcdefg1')).toEqual([]);
  });
});
