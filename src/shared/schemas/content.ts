import { BOT_GUARD_MS } from '../bot-guard.js';
import { z } from 'zod';
import { FAQ_PLACEHOLDERS, unknownPlaceholders } from '../shop-facts.js';
import { tooLong, tooManyItems } from './limits.js';

export const CONTENT_MESSAGES = {
  contactSuccessTitle: 'Message Sent!',
  contactSuccess: "We'll get back to you as soon as possible.",
  contactFailed: 'Failed to submit form. Please try again later.',
  contactRequired: 'Please fill in all required fields',
  faqNotFound: 'FAQ not found',
  templateNotFound: 'Template not found',
  emailConnectionFailed: 'Email connection failed. Check SMTP configuration.',
  testEmailSent: 'Test email sent successfully!',
  testEmailFailed: 'Failed to send test email. Check console for details.',
  shipstationDisabled: 'Info: ShipStation service temporarily disabled',
} as const;

/** What the back office shows after saving settings, FAQs and page content (spec section 8). */
export const CONTENT_ADMIN_MESSAGES = {
  settingsUpdated: 'Settings updated',
  generalSaved: 'General settings have been saved successfully.',
  socialSaved: 'Social media settings have been saved successfully.',
  integrationsSaved: 'Integration settings have been saved successfully.',
  faqCreated: 'FAQ Created',
  faqUpdated: 'FAQ Updated',
  faqDeleted: 'FAQ Deleted',
  contentSaved: 'Success',
  aboutSaved: 'About content has been updated successfully.',
  homepageSaved: 'Homepage content has been updated successfully.',
  contentFailed: (message: string) => `Failed to update content: ${message}`,
} as const;

/**
 * What each contact field says when it is left empty: the field names itself, so a person (or an
 * API caller) knows which one to fill; the form's toast carries the specification's general text.
 */
export const CONTACT_MISSING = {
  name: 'Please enter your full name',
  email: 'Please enter your email address',
  subject: 'Please enter a subject',
  message: 'Please enter your message',
} as const;

const contactText = (missing: string, max: number, label: string) =>
  z.string({ message: missing }).trim().min(1, missing).max(max, tooLong(label, max));

/** The contact form: all four fields required, a valid e-mail, and the bot guards. */
export const ContactInput = z
  .object({
    name: contactText(CONTACT_MISSING.name, 100, 'Full name'),
    email: contactText(CONTACT_MISSING.email, 254, 'Email address').pipe(z.email({ message: 'Please enter a valid email address' })),
    subject: contactText(CONTACT_MISSING.subject, 200, 'Subject'),
    message: contactText(CONTACT_MISSING.message, 5000, 'Message'),
    elapsedMs: z.number().int().min(0, 'elapsedMs cannot be negative').optional(),
    website: z.string().max(200, tooLong('website', 200)).optional(),
  })
  .strict();
export type ContactInput = z.input<typeof ContactInput>;
export const CONTACT_MIN_FILL_MS = BOT_GUARD_MS.contact;

/**
 * A YouTube link in watch (youtube.com/watch?v=), short (youtu.be/) or embed form, stored in
 * embed form. Other addresses are kept as given.
 */
export function toEmbedVideoUrl(url: string): string {
  const trimmed = url.trim();
  if (!trimmed) return '';
  let u: URL;
  try {
    u = new URL(trimmed);
  } catch {
    return trimmed;
  }
  const host = u.hostname.replace(/^www\.|^m\./, '');
  let id: string | null = null;
  if (host === 'youtu.be') id = u.pathname.slice(1).split('/')[0] ?? null;
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    if (u.pathname === '/watch') id = u.searchParams.get('v');
    else if (u.pathname.startsWith('/embed/')) id = u.pathname.split('/')[2] ?? null;
    else if (u.pathname.startsWith('/shorts/')) id = u.pathname.split('/')[2] ?? null;
  }
  // Vimeo: vimeo.com/123456 or player.vimeo.com/video/123456 becomes the player's address.
  if (host === 'vimeo.com' || host === 'player.vimeo.com') {
    const vimeo = /^\/(?:video\/)?(\d{3,12})(?:\/|$)/.exec(u.pathname)?.[1];
    return vimeo ? `https://player.vimeo.com/video/${vimeo}` : trimmed;
  }
  if (!id || !/^[A-Za-z0-9_-]{6,20}$/.test(id)) return trimmed;
  const embedHost = host === 'youtube-nocookie.com' ? 'www.youtube-nocookie.com' : 'www.youtube.com';
  return `https://${embedHost}/embed/${id}`;
}

/** What the hero video accepts, said once for the form's hint and the server's 400. */
export const HERO_VIDEO_ACCEPTED =
  'Please enter a YouTube or Vimeo video link, or an https:// link to a video file ending in .mp4, .webm or .ogg';

/**
 * A hero video the home page can play in its frame: a YouTube or Vimeo video (stored in embed
 * form), or an https:// link straight to a video file. Any other page (a shop, a search, a
 * channel) is refused: it would show in the hero frame as a web page, or not at all.
 */
export function isHeroVideoUrl(url: string): boolean {
  const embed = toEmbedVideoUrl(url);
  if (/^https:\/\/www\.youtube(-nocookie)?\.com\/embed\/[A-Za-z0-9_-]{6,20}$/.test(embed)) return true;
  if (/^https:\/\/player\.vimeo\.com\/video\/\d{3,12}$/.test(embed)) return true;
  let u: URL;
  try {
    u = new URL(embed);
  } catch {
    return false;
  }
  return u.protocol === 'https:' && !/\s/.test(embed) && /\.(mp4|webm|ogg|ogv)$/i.test(u.pathname);
}

/** The shop's phone as people write it: digits, spaces, +, -, dots and parentheses, 7 to 15 digits. */
export const CONTACT_PHONE_INVALID =
  'Please enter a phone number using digits, spaces, +, - and parentheses, with 7 to 15 digits, e.g. (555) 123-4567';
export function isPhoneNumber(v: string): boolean {
  if (!/^\+?[\d\s().-]+$/.test(v)) return false;
  const digits = v.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15;
}

const AnyEmail = z.email();

/** The shop's return address (setting `shop_return_address`, lines of text): its limit and sentence. */
export const SHOP_RETURN_ADDRESS_MAX = 300;
export const SHOP_RETURN_ADDRESS_TOO_LONG = `Return address cannot exceed ${SHOP_RETURN_ADDRESS_MAX} characters`;
export const SHOP_POSTAL_ADDRESS_TOO_LONG = `Postal address cannot exceed ${SHOP_RETURN_ADDRESS_MAX} characters`;

export const GeneralSettingsInput = z
  .object({
    contact_email: z
      .string()
      .trim()
      .max(254, tooLong('Contact email', 254))
      .refine((v) => v === '' || AnyEmail.safeParse(v).success, 'Please enter a valid email address'),
    contact_phone: z
      .string()
      .trim()
      .max(30, tooLong('Contact phone', 30))
      .refine((v) => v === '' || isPhoneNumber(v), CONTACT_PHONE_INVALID),
    contact_hours: z.string().trim().max(100, tooLong('Contact hours', 100)),
    /** Printed on packing slips (the parcel's sender); optional so older forms still save. */
    shop_return_address: z.string().trim().max(SHOP_RETURN_ADDRESS_MAX, SHOP_RETURN_ADDRESS_TOO_LONG).optional(),
    /** At the foot of offers and reminders (CAN-SPAM); the return address stands in while empty. Optional so older forms still save. */
    shop_postal_address: z.string().trim().max(SHOP_RETURN_ADDRESS_MAX, SHOP_POSTAL_ADDRESS_TOO_LONG).optional(),
  })
  .strict();
export type GeneralSettingsInput = z.input<typeof GeneralSettingsInput>;

const optionalUrl = z
  .string()
  .trim()
  .max(500, tooLong('A link', 500))
  .refine((v) => v === '' || /^https?:\/\/\S+$/.test(v), 'Please enter a full link starting with https://');

export const SocialSettingsInput = z.object({ social_media_facebook: optionalUrl, social_media_youtube: optionalUrl }).strict();
export type SocialSettingsInput = z.input<typeof SocialSettingsInput>;

export const IntegrationSettingsInput = z
  .object({
    power_automate_endpoint: optionalUrl.optional(),
    power_automate_enabled: z.boolean().optional(),
    // Omitted, empty or the masked hint the server sent: keep the stored secret. null: remove it.
    shipstation_api_key: z.string().trim().max(200, tooLong('API key', 200)).nullable().optional(),
    shipstation_api_secret: z.string().trim().max(200, tooLong('API secret', 200)).nullable().optional(),
    shipstation_enabled: z.boolean().optional(),
    shipstation_api_version: z.enum(['v1', 'v2']).optional(),
    /** Stripe Checkout's own offers box (payments: STRIPE_PROMOTIONS_CONSENT_KEY). */
    stripe_promotions_consent: z.boolean().optional(),
  })
  .strict();
export type IntegrationSettingsInput = z.input<typeof IntegrationSettingsInput>;

const requiredText = (label: string, max = 5000) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, tooLong(label, max));
const optionalText = (label: string, max = 5000) => z.string().trim().max(max, tooLong(label, max)).optional();
/** An uploaded image (a path on this site) or a full https:// link; never a javascript: or data: address. */
const optionalImage = z
  .string()
  .trim()
  .max(500, tooLong('An image address', 500))
  .refine(
    (v) => v === '' || /^\/(?!\/)\S*$/.test(v) || /^https?:\/\/\S+$/.test(v),
    'Please upload an image or enter a full link starting with https://',
  )
  .optional();
/** The hero video: YouTube (any form becomes the embed form on save), Vimeo, or a video file's https:// link. */
const optionalVideo = z
  .string()
  .trim()
  .max(500, tooLong('The video link', 500))
  .refine((v) => v === '' || isHeroVideoUrl(v), HERO_VIDEO_ACCEPTED)
  .optional();

export const HomepageContentInput = z
  .object({
    homepage_hero_title: requiredText('Hero title', 200),
    homepage_hero_subtitle: requiredText('Hero subtitle', 300),
    homepage_hero_description: requiredText('Hero description', 2000),
    homepage_hero_image: optionalImage,
    hero_video_url: optionalVideo,
    homepage_about_title: requiredText('About title', 200),
    homepage_about_description: requiredText('About description'),
    homepage_about_image: optionalImage,
  })
  .strict();
export type HomepageContentInput = z.input<typeof HomepageContentInput>;

export const AboutContentInput = z
  .object({
    about_title: requiredText('Title', 200),
    about_hero_image: optionalImage,
    about_mission_title: optionalText('Mission title', 200),
    about_mission_content: optionalText('Mission content'),
    about_mission_quote: optionalText('Mission quote', 500),
    about_history_title: optionalText('History title', 200),
    about_history_content: optionalText('History content'),
    about_values_title: optionalText('Values title', 200),
    about_values_content: optionalText('Values content'),
    about_commitment_title: optionalText('Commitment title', 200),
    about_commitment_content: optionalText('Commitment content'),
  })
  .strict();
export type AboutContentInput = z.input<typeof AboutContentInput>;

export const FaqInput = z
  .object({
    question: z.string({ message: 'Question is required' }).trim().min(1, 'Question is required').max(500, tooLong('Question', 500)),
    answer: z
      .string({ message: 'Answer is required' })
      .trim()
      .min(1, 'Answer is required')
      .max(5000, tooLong('Answer', 5000))
      .refine((v) => unknownPlaceholders(v).length === 0, {
        error: (issue) =>
          `Unknown placeholder {{${unknownPlaceholders(String(issue.input))[0]}}}: use ${Object.keys(FAQ_PLACEHOLDERS)
            .map((k) => `{{${k}}}`)
            .join(', ')}`,
      }),
    category: z
      .string()
      .trim()
      .max(100, tooLong('Category', 100))
      .nullish()
      .transform((v) => (!v || v === 'No Category' ? null : v)),
  })
  .strict();
export type FaqInput = z.input<typeof FaqInput>;

export const EmailTemplateInput = z
  .object({
    id: z
      .string()
      .trim()
      .min(3, 'Template ID must be at least 3 characters')
      .max(60, tooLong('Template ID', 60))
      .regex(/^[a-z0-9-]+$/, 'Template ID can only contain lowercase letters, numbers, and hyphens'),
    name: z.string().trim().min(1, 'Name is required').max(100, tooLong('Name', 100)),
    subject: z.string().trim().min(1, 'Subject is required').max(200, tooLong('Subject', 200)),
    html: z.string().min(1, 'HTML is required').max(200_000, tooLong('HTML', 200_000)),
    text: z.string().max(200_000, tooLong('Plain-text version', 200_000)).nullish(),
    variables: z
      .array(z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'Variable names are letters, digits and _'))
      .max(50, tooManyItems('variables', 50))
      .default([]),
  })
  .strict();

/** Before a test send's subject, so a test in an inbox is never taken for a real order's e-mail. */
export const TEST_EMAIL_SUBJECT_PREFIX = '[TEST] ';

export const TestEmailInput = z
  .object({
    templateId: z.string().min(1, 'Choose a template').max(60, tooLong('Template ID', 60)),
    testEmail: z.email({ message: 'Please enter a valid email address' }),
  })
  .strict();
