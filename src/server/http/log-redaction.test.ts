import { describe, expect, it } from 'vitest';
import { REDACTED, redactUrl, scrubLogLine } from './log-redaction.js';

describe('redactUrl', () => {
  it('blanks secret query values, however the name is spelled, and keeps the rest', () => {
    expect(redactUrl('/reset-password?token=abc123')).toBe(`/reset-password?token=${REDACTED}`);
    expect(redactUrl('/reset-password?x=1&token=abc&y=2')).toBe(`/reset-password?x=1&token=${REDACTED}&y=2`);
    expect(redactUrl('/reset-password?%74oken=abc')).toBe(`/reset-password?%74oken=${REDACTED}`);
    expect(redactUrl('/a?TOKEN=abc&access_token=def&api_key=g&sig=h&password=i&sid=j')).toBe(
      `/a?TOKEN=${REDACTED}&access_token=${REDACTED}&api_key=${REDACTED}&sig=${REDACTED}&password=${REDACTED}&sid=${REDACTED}`,
    );
    expect(redactUrl('/api/products?search=mop&page=2')).toBe('/api/products?search=mop&page=2');
    expect(redactUrl('/order-confirmation?orderId=o1')).toBe('/order-confirmation?orderId=o1');
  });

  it('blanks the segment after a token-bearing path segment, however it is spelled', () => {
    expect(redactUrl('/reset-password/abc123')).toBe(`/reset-password/${REDACTED}`);
    expect(redactUrl('/RESET-PASSWORD/abc123/x')).toBe(`/RESET-PASSWORD/${REDACTED}/x`);
    expect(redactUrl('/reset%2Dpassword/abc123')).toBe(`/reset%2Dpassword/${REDACTED}`);
    expect(redactUrl('/reset-password;x=1/abc123')).toBe(`/reset-password;x=1/${REDACTED}`);
    expect(redactUrl('/api/unsubscribe/abc?token=def')).toBe(`/api/unsubscribe/${REDACTED}?token=${REDACTED}`);
    expect(redactUrl('/review/abc123')).toBe(`/review/${REDACTED}`);
    expect(redactUrl('/api/reviews/link/abc123?productId=p1')).toBe(`/api/reviews/link/${REDACTED}?productId=p1`);
    expect(redactUrl('/api/reviews/opt-out/abc123')).toBe(`/api/reviews/opt-out/${REDACTED}`);
    expect(redactUrl('/api/subscriptions/manage/abc123/skip')).toBe(`/api/subscriptions/manage/${REDACTED}/skip`);
    expect(redactUrl('/api/account/reviews/product/p1')).toBe('/api/account/reviews/product/p1');
    expect(redactUrl('/reset-password')).toBe('/reset-password');
    expect(redactUrl('/reset-password/')).toBe('/reset-password/');
    expect(redactUrl('/api/admin/users')).toBe('/api/admin/users');
    // The reset API's own routes carry the token in their bodies: their paths stay readable.
    expect(redactUrl('/api/auth/password-reset/validate')).toBe('/api/auth/password-reset/validate');
  });

  it('scrubs a finished log line: secret parameters quoted anywhere, the session cookie', () => {
    const line = JSON.stringify({ msg: 'fetch https://shop/reset-password?token=abc123&x=1 failed', cookie: 'cart=1; sid=s3cr3t; y=2' });
    const scrubbed = scrubLogLine(line);
    expect(scrubbed).not.toContain('abc123');
    expect(scrubbed).not.toContain('s3cr3t');
    expect(scrubbed).toContain('x=1');
    expect(scrubbed).toContain('cart=1');
  });
});
