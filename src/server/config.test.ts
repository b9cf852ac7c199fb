import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadServerConfig } from './config.js';

const LIVE = { STRIPE_SECRET_KEY: 'sk_live_51AbCdEf', STRIPE_WEBHOOK_SECRET: 'whsec_AbCdEf' };
const error = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('a production shop takes real payments, or says plainly that it does not', () => {
  it('refuses to start without a Stripe key, naming both ways out', () => {
    const message = error(() => loadServerConfig({ NODE_ENV: 'production' }));
    expect(message).toContain('STRIPE_SECRET_KEY: must be set in production');
    expect(message).toContain('ALLOW_TEST_PAYMENTS=true');
    expect(message).toContain('STRIPE_WEBHOOK_SECRET');
  });

  it('refuses a key without the webhook secret (no payment would ever be confirmed), even with test payments allowed', () => {
    for (const env of [
      { NODE_ENV: 'production', STRIPE_SECRET_KEY: LIVE.STRIPE_SECRET_KEY },
      { NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_test_x', ALLOW_TEST_PAYMENTS: 'true' },
    ]) {
      expect(error(() => loadServerConfig(env))).toMatch(/STRIPE_WEBHOOK_SECRET: must be set with STRIPE_SECRET_KEY/);
    }
  });

  it('refuses a Stripe test-mode key unless test payments are allowed', () => {
    const env = { NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(error(() => loadServerConfig(env))).toContain('STRIPE_SECRET_KEY: is a Stripe test-mode key');
    expect(error(() => loadServerConfig({ ...env, STRIPE_SECRET_KEY: 'rk_test_abc' }))).toContain('test-mode key');
    const allowed = loadServerConfig({ ...env, ALLOW_TEST_PAYMENTS: 'true' });
    expect(allowed.testPayments).toBe(true);
  });

  it('starts with live keys (real payments), or with ALLOW_TEST_PAYMENTS=true (and then knows payments are not real)', () => {
    const live = loadServerConfig({ NODE_ENV: 'production', ...LIVE });
    expect(live.testPayments).toBe(false);
    expect(live.stripeSecretKey).toBe(LIVE.STRIPE_SECRET_KEY);
    const test = loadServerConfig({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true' });
    expect(test.testPayments).toBe(true);
    expect(test.stripeSecretKey).toBeUndefined();
  });

  it('takes as live only sk_live_/rk_live_ keys; a publishable or unknown key is refused, naming the variable', () => {
    const base = { NODE_ENV: 'production', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    for (const key of ['sk_live_51AbCdEf', 'rk_live_51AbCdEf']) {
      const live = loadServerConfig({ ...base, STRIPE_SECRET_KEY: key });
      expect(live.testPayments).toBe(false);
    }
    const publishable = error(() => loadServerConfig({ ...base, STRIPE_SECRET_KEY: 'pk_test_51AbCdEf' }));
    expect(publishable).toContain('STRIPE_SECRET_KEY: is a publishable key (pk_…), not a secret key');
    expect(publishable).toContain('sk_live_');
    expect(error(() => loadServerConfig({ ...base, STRIPE_SECRET_KEY: 'pk_live_51AbCdEf' }))).toContain(
      'STRIPE_SECRET_KEY: is a publishable key',
    );
    for (const key of ['random-value', 'whsec_AbCdEf', 'sk_51AbCdEf', 'sk_live_', 'SK_LIVE_abc', ' sk_live_abc']) {
      expect(error(() => loadServerConfig({ ...base, STRIPE_SECRET_KEY: key }))).toContain('STRIPE_SECRET_KEY: is not a Stripe secret key');
    }
    // Allowing test payments does not make a wrong key right, and neither does another environment.
    expect(error(() => loadServerConfig({ ...base, STRIPE_SECRET_KEY: 'pk_test_x', ALLOW_TEST_PAYMENTS: 'true' }))).toContain(
      'STRIPE_SECRET_KEY: is a publishable key',
    );
    expect(error(() => loadServerConfig({ NODE_ENV: 'development', STRIPE_SECRET_KEY: 'pk_test_x' }))).toContain('STRIPE_SECRET_KEY');
    // Test keys are test payments, wherever they run.
    expect(loadServerConfig({ NODE_ENV: 'development', STRIPE_SECRET_KEY: 'sk_test_abc' }).testPayments).toBe(true);
    expect(loadServerConfig({ NODE_ENV: 'test', STRIPE_SECRET_KEY: 'rk_test_abc' }).testPayments).toBe(true);
    // A database tool does not stop at a payment key, and never counts a wrong one as live.
    expect(loadConfig({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'pk_test_x' }).testPayments).toBe(true);
  });

  it('ALLOW_TEST_PAYMENTS takes true or false only', () => {
    expect(error(() => loadServerConfig({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'yes' }))).toContain(
      "ALLOW_TEST_PAYMENTS: must be 'true' or 'false'",
    );
  });

  it('development and test start on test payments as before; tools that only touch the database are not held up', () => {
    expect(loadServerConfig({ NODE_ENV: 'development' }).testPayments).toBe(true);
    expect(loadServerConfig({ NODE_ENV: 'test' }).testPayments).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).testPayments).toBe(true);
  });
});

describe('HOST', () => {
  it('development and test listen on this machine only by default; production on every interface', () => {
    expect(loadConfig({}).host).toBe('localhost');
    expect(loadConfig({ NODE_ENV: 'development' }).host).toBe('localhost');
    expect(loadConfig({ NODE_ENV: 'test' }).host).toBe('localhost');
    expect(loadConfig({ NODE_ENV: 'development', HOST: '' }).host).toBe('localhost');
    expect(loadConfig({ NODE_ENV: 'production' }).host).toBe('0.0.0.0');
  });

  it('HOST opens it up (or narrows it) on purpose', () => {
    expect(loadConfig({ NODE_ENV: 'development', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production', HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
  });
});
