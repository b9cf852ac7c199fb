import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { EmailTemplateForm, IntegrationSettingsForm, LoyaltyPointsForm, refundForm, TestEmailForm } from './admin-forms.js';

/** The first message at each top-level field, as the forms show them. */
function messages(result: z.ZodSafeParseResult<unknown>): Record<string, string> {
  const found: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) found[String(issue.path[0])] ??= issue.message;
  return found;
}

describe('admin form schemas: the body schema decides, with its messages', () => {
  const integrations = {
    power_automate_endpoint: '',
    power_automate_enabled: false,
    shipstation_enabled: true,
    shipstation_api_version: 'v2' as const,
    shipstation_api_key: '',
    remove_shipstation_api_key: false,
    shipstation_api_secret: '',
    remove_shipstation_api_secret: false,
  };

  it('integrations: an empty secret keeps the saved one, a removed one is null, a typed one is trimmed', () => {
    expect(IntegrationSettingsForm.parse(integrations)).toMatchObject({
      shipstation_api_key: undefined,
      shipstation_api_secret: undefined,
    });
    expect(
      IntegrationSettingsForm.parse({ ...integrations, shipstation_api_key: '  k-1 ', remove_shipstation_api_secret: true }),
    ).toMatchObject({ shipstation_api_key: 'k-1', shipstation_api_secret: null });
    expect(messages(IntegrationSettingsForm.safeParse({ ...integrations, power_automate_endpoint: 'ftp://x' }))).toEqual({
      power_automate_endpoint: 'Please enter a full link starting with https://',
    });
    expect(messages(IntegrationSettingsForm.safeParse({ ...integrations, shipstation_api_key: 'k'.repeat(201) }))).toHaveProperty(
      'shipstation_api_key',
    );
  });

  it('e-mail template: variables from one line, an empty text version is none, messages at the fields', () => {
    const draft = {
      id: 'order-ready',
      name: 'Ready',
      subject: 'Hi {{name}}',
      html: '<p>Hi</p>',
      text: '  ',
      variables: 'name, total name',
    };
    expect(EmailTemplateForm.parse(draft)).toMatchObject({ variables: ['name', 'total'], text: null });
    expect(messages(EmailTemplateForm.safeParse({ ...draft, id: 'Bad ID', name: ' ', html: '', variables: 'ok, 9lives' }))).toEqual({
      id: 'Template ID can only contain lowercase letters, numbers, and hyphens',
      name: 'Name is required',
      html: 'HTML is required',
      variables: 'Variable names are letters, digits and _',
    });
  });

  it('test send: the address trimmed, or the spec text', () => {
    expect(TestEmailForm.parse({ templateId: 'welcome', testEmail: ' a@b.co ' })).toEqual({ templateId: 'welcome', testEmail: 'a@b.co' });
    expect(messages(TestEmailForm.safeParse({ templateId: 'welcome', testEmail: '' }))).toEqual({
      testEmail: 'Please enter a valid email address',
    });
  });

  it('loyalty points: a whole number (negative ones become 0 as on the server)', () => {
    expect(LoyaltyPointsForm.parse({ loyaltyPoints: '-40' })).toEqual({ loyaltyPoints: 0 });
    for (const typed of ['', '1.5', 'lots']) {
      expect(messages(LoyaltyPointsForm.safeParse({ loyaltyPoints: typed }))).toEqual({
        loyaltyPoints: 'Loyalty points must be a whole number.',
      });
    }
  });

  it('refund: dollars to cents, above zero and at most what is left', () => {
    const form = refundForm(1250);
    expect(form.parse({ amountCents: '12.50', reason: '  ', restock: true })).toEqual({
      amountCents: 1250,
      reason: undefined,
      restock: true,
    });
    for (const typed of ['', '0', '-1']) {
      expect(messages(form.safeParse({ amountCents: typed, reason: '', restock: false }))).toEqual({
        amountCents: 'Enter an amount greater than $0.00',
      });
    }
    expect(messages(form.safeParse({ amountCents: '12.51', reason: '', restock: false }))).toEqual({
      amountCents: 'At most $12.50 is left to refund',
    });
  });
});
