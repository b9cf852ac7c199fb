import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, newPasswordProblem, SignUpInput } from './auth.js';

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
