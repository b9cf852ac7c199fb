import { z } from 'zod';

/** The one place that reads process.env. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Unset: the loopback address in development and test, every interface in production. */
  HOST: z.string().optional(),
  DATABASE_URL: z
    .string()
    .default('sqlite:data/shop.db')
    .refine((v) => /^(sqlite:|postgres(ql)?:\/\/)/.test(v), {
      message: "must start with 'sqlite:' (e.g. sqlite:data/shop.db) or 'postgres://'",
    }),
  PUBLIC_URL: z.url({ message: 'must be an absolute URL such as https://shop.example.com' }).optional(),
  ADMIN_EMAIL: z.email({ message: 'must be an e-mail address' }).optional(),
  ADMIN_PASSWORD: z.string().min(12, 'must be at least 12 characters').optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('EcoClean <no-reply@ecoclean.example>'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: z.url({ message: 'must be an absolute URL' }).optional(),
  ALLOW_TEST_PAYMENTS: z
    .enum(['true', 'false'], { message: "must be 'true' or 'false'" })
    .default('false')
    .transform((v) => v === 'true'),
  SHIPSTATION_V2_BASE: z.url().default('https://api.shipstation.com'),
  SHIPSTATION_V1_BASE: z.url().default('https://ssapi.shipstation.com'),
  UPLOAD_DIR: z.string().default('data/uploads'),
  /** Where uploaded images live (decision 0062): this machine's UPLOAD_DIR, or a bucket of an S3-compatible service. */
  FILE_STORE: z.enum(['local', 's3'], { message: "must be 'local' (the folder UPLOAD_DIR) or 's3' (a bucket)" }).default('local'),
  S3_BUCKET: z.string().optional(),
  /** AWS: the bucket's region; Cloudflare R2: auto; most others: whatever their documentation says (us-east-1 works for MinIO). */
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, message: 'must be an absolute URL such as https://<account>.r2.cloudflarestorage.com' })
    .optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'], { message: "must be 'true' or 'false'" })
    .default('false')
    .transform((v) => v === 'true'),
  S3_PUBLIC_URL: z.url({ protocol: /^https?$/, message: 'must be an absolute URL such as https://images.example.com' }).optional(),
  BACKUP_DIR: z.string().default('backups'),
  CLIENT_DIR: z.string().default('dist/client'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  RETRY_BASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  WORKER_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  REVIEW_REQUEST_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  RECOVERY_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  REORDER_REMINDER_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  SHOP_CHANGE_POLL_MS: z.coerce.number().int().min(50).max(10_000).default(250),
  PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(16),
  QUERY_PROFILE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  PG_PREPARED_STATEMENTS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  CHECKOUT_LIMIT_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(20),
  CHECKOUT_LIMIT_PER_DEVICE: z.coerce.number().int().min(1).max(1_000_000).default(10),
  REVIEW_WRITE_LIMIT_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(20),
  SIGN_UP_LIMIT_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(10),
  CHECKOUT_MAX_UNITS_HELD: z.coerce.number().int().min(1).max(100_000_000).default(250),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string;
  publicUrl: string;
  adminEmail?: string;
  adminPassword?: string;
  smtpUrl?: string;
  mailFrom: string;
  stripeSecretKey?: string;
  stripeWebhookSecret?: string;
  /** Another address for Stripe's API (a local fake in tests). */
  stripeApiBase?: string;
  /**
   * Payments take no real money: the built-in test card page (no Stripe key) or Stripe's test mode
   * (a test key). Production starts so only with ALLOW_TEST_PAYMENTS=true, and then says so in its
   * startup log and on every back-office page.
   */
  testPayments: boolean;
  shipstationV2Base: string;
  shipstationV1Base: string;
  uploadDir: string;
  /** Where uploaded images are kept (files/create-file-store.ts). */
  fileStore: FileStoreConfig;
  /** Where `npm run backup` puts a new timestamped folder when it is not given one. */
  backupDir: string;
  clientDir: string;
  logLevel: string;
  trustProxy: boolean;
  /** First wait before retrying a failed e-mail or contact forward (doubles each attempt). */
  retryBaseMs: number;
  /** How often the e-mail and contact-forwarding workers look for due work. */
  workerIntervalMs: number;
  /**
   * How often each process looks for orders whose review request is due (reviews/requests.ts). A
   * request is due on a day's scale and an idle look still reads the window's orders (some 40 ms at
   * 20,000 orders, admin-queue.scale.test.ts): a minute.
   */
  reviewRequestIntervalMs: number;
  /** How often each process looks for abandoned checkouts and recovery e-mails due (marketing/recovery.ts). */
  recoveryIntervalMs: number;
  reorderReminderIntervalMs: number;
  /** How often each process checks whether the shop changed (back-office writes, stock holds): cached pages are dropped then. */
  shopChangePollMs: number;
  /** The most rendered storefront HTML one process keeps (0 turns the page cache off). */
  pageCacheMb: number;
  /** Measuring only: every statement's time added up by its SQL, printed at exit (db/database.ts). */
  queryProfile: boolean;
  /** PostgreSQL: statements prepared per connection (db/pg-driver.ts); off behind a pooler that cannot keep them. */
  pgPreparedStatements: boolean;
  /** Checkout sessions one IP, and one browser, may start per 10 minutes (attempts, counted before the work). */
  checkoutLimitPerIp: number;
  checkoutLimitPerDevice: number;
  /** Review writes (new and edited) one IP may send per 15 minutes (counted before the work). */
  reviewWriteLimitPerIp: number;
  /** Accounts one IP may create per 15 minutes (attempts, counted before the work). */
  signUpLimitPerIp: number;
  /** Units one shopper (same IP, browser or account) may hold across open checkouts at once. */
  checkoutMaxUnitsHeld: number;
  /** A client must send its request's headers within this (slow-header attacks). */
  headersTimeoutMs: number;
  /** ... and the whole request, body included, within this. */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
};

/** The uploads folder on this machine, or a bucket (with where its files can be fetched by browsers, if anywhere). */
export type FileStoreConfig =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      /** The service's address (R2, B2, MinIO, …); absent for AWS S3 itself. */
      endpoint?: string;
      /** Absent: the SDK's own chain (an instance role, AWS_* variables, ~/.aws). */
      accessKeyId?: string;
      secretAccessKey?: string;
      /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO, most self-hosted services). */
      forcePathStyle: boolean;
      /** Set: `/uploads/<key>` redirects there (a public bucket or a CDN); unset: the shop serves the bytes itself. */
      publicUrl?: string;
    };

export class ConfigError extends Error {}

type Env = z.output<typeof EnvSchema>;

/** A Stripe key of test mode (`sk_test_…`, restricted `rk_test_…`): Stripe charges no card with it. */
function isStripeTestKey(key: string): boolean {
  return /^(sk|rk)_test_[A-Za-z0-9_]+$/.test(key);
}

/** A live Stripe secret key (`sk_live_…`, restricted `rk_live_…`): the only keys that take real money. */
function isStripeLiveKey(key: string): boolean {
  return /^(sk|rk)_live_[A-Za-z0-9_]+$/.test(key);
}

/**
 * What a production shop needs before it takes orders: real card payments (a live Stripe key and
 * the webhook's signing secret, without which no payment is ever confirmed), unless the owner
 * opted into test payments with ALLOW_TEST_PAYMENTS=true.
 */
function checkPayments(e: Env, ctx: z.RefinementCtx): void {
  const key = e.STRIPE_SECRET_KEY || undefined;
  // A publishable key (pk_…), a webhook secret or a typo is no secret key in any environment: the
  // first payment would fail, and a shape that is neither test nor live must never pass as live.
  if (key && !isStripeTestKey(key) && !isStripeLiveKey(key)) {
    const publishable = /^pk_/.test(key);
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_SECRET_KEY'],
      message: `${publishable ? 'is a publishable key (pk_…), not a secret key' : 'is not a Stripe secret key'}: it must start with sk_live_ or rk_live_ (real payments) or sk_test_ or rk_test_ (test mode). Copy the secret key from the API keys page of the Stripe dashboard`,
    });
    return;
  }
  if (e.NODE_ENV !== 'production') return;
  if (key && !e.STRIPE_WEBHOOK_SECRET) {
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_WEBHOOK_SECRET'],
      message:
        "must be set with STRIPE_SECRET_KEY: it is the signing secret (whsec_…) of the shop's webhook endpoint at /api/webhooks/stripe in the Stripe dashboard; without it no payment is ever confirmed",
    });
  }
  if (e.ALLOW_TEST_PAYMENTS) return;
  if (!key) {
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_SECRET_KEY'],
      message:
        'must be set in production: without it every checkout goes to the built-in test card page, which marks orders paid without taking any money. Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to your live Stripe keys, or set ALLOW_TEST_PAYMENTS=true to run this shop on test payments on purpose',
    });
  } else if (isStripeTestKey(key)) {
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_SECRET_KEY'],
      message:
        'is a Stripe test-mode key: Stripe charges no card with it. Set your live key (sk_live_… or rk_live_…), or set ALLOW_TEST_PAYMENTS=true to run this shop on test payments on purpose',
    });
  }
}

/** A bucket's settings hold together: FILE_STORE=s3 names a bucket, and access keys come in pairs. */
function checkFileStore(e: Env, ctx: z.RefinementCtx): void {
  if (e.FILE_STORE !== 's3') return;
  const bucket = e.S3_BUCKET?.trim();
  if (!bucket) {
    ctx.addIssue({
      code: 'custom',
      path: ['S3_BUCKET'],
      message: 'must be set when FILE_STORE=s3: the name of the bucket that keeps the uploaded images (or set FILE_STORE=local)',
    });
  } else if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    ctx.addIssue({
      code: 'custom',
      path: ['S3_BUCKET'],
      message: 'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit',
    });
  }
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: [e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
      message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together (or both left unset to use the machine's own AWS credentials)",
    });
  }
}

const CheckedEnvSchema = EnvSchema.superRefine(checkFileStore);

function parseEnv<S extends z.ZodType<Env>>(schema: S, env: Record<string, string | undefined>): Env {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/**
 * The configuration of the shop's server process (src/server/main.ts): the environment, plus what a
 * production shop must have before it takes orders (real payments, or the owner's explicit opt-out).
 * Tools that only touch the database (migrate, seed, backup, restore) read `loadConfig`.
 */
export function loadServerConfig(env: Record<string, string | undefined> = process.env): Config {
  return toConfig(parseEnv(CheckedEnvSchema.superRefine(checkPayments), env));
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return toConfig(parseEnv(CheckedEnvSchema, env));
}

function toConfig(e: Env): Config {
  const stripeSecretKey = e.STRIPE_SECRET_KEY || undefined;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    // Development prints the demo admin's password: it listens on this machine only unless HOST opens it up.
    host: e.HOST || (e.NODE_ENV === 'production' ? '0.0.0.0' : 'localhost'),
    databaseUrl: e.DATABASE_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    stripeSecretKey,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET || undefined,
    stripeApiBase: e.STRIPE_API_BASE || undefined,
    // Only a live key takes real money; anything else (no key, a test key) is test payments.
    testPayments: !stripeSecretKey || !isStripeLiveKey(stripeSecretKey),
    shipstationV2Base: e.SHIPSTATION_V2_BASE.replace(/\/+$/, ''),
    shipstationV1Base: e.SHIPSTATION_V1_BASE.replace(/\/+$/, ''),
    uploadDir: e.UPLOAD_DIR,
    fileStore:
      e.FILE_STORE === 's3'
        ? {
            kind: 's3',
            bucket: e.S3_BUCKET!.trim(),
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
            accessKeyId: e.S3_ACCESS_KEY_ID || undefined,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY || undefined,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
            publicUrl: e.S3_PUBLIC_URL?.replace(/\/+$/, ''),
          }
        : { kind: 'local', dir: e.UPLOAD_DIR },
    backupDir: e.BACKUP_DIR,
    clientDir: e.CLIENT_DIR,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    retryBaseMs: e.RETRY_BASE_MS,
    workerIntervalMs: e.WORKER_INTERVAL_MS,
    reviewRequestIntervalMs: e.REVIEW_REQUEST_INTERVAL_MS,
    recoveryIntervalMs: e.RECOVERY_INTERVAL_MS,
    reorderReminderIntervalMs: e.REORDER_REMINDER_INTERVAL_MS,
    shopChangePollMs: e.SHOP_CHANGE_POLL_MS,
    pageCacheMb: e.PAGE_CACHE_MB,
    queryProfile: e.QUERY_PROFILE,
    pgPreparedStatements: e.PG_PREPARED_STATEMENTS,
    checkoutLimitPerIp: e.CHECKOUT_LIMIT_PER_IP,
    checkoutLimitPerDevice: e.CHECKOUT_LIMIT_PER_DEVICE,
    checkoutMaxUnitsHeld: e.CHECKOUT_MAX_UNITS_HELD,
    reviewWriteLimitPerIp: e.REVIEW_WRITE_LIMIT_PER_IP,
    signUpLimitPerIp: e.SIGN_UP_LIMIT_PER_IP,
    headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: Math.max(e.HTTP_REQUEST_TIMEOUT_MS, e.HTTP_HEADERS_TIMEOUT_MS),
    keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  };
}
