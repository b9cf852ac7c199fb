import { describe, expect, it } from 'vitest';
import { cardBrandName, cardText, CARD_UPDATE_TEXTS } from './subscription-card.js';

describe('the card as the customer reads it', () => {
  it('names brands as people write them, whoever spelled them', () => {
    expect(cardBrandName('visa')).toBe('Visa');
    expect(cardBrandName('Visa')).toBe('Visa');
    expect(cardBrandName('amex')).toBe('American Express');
    expect(cardBrandName('mastercard')).toBe('Mastercard');
    expect(cardBrandName('cartes_bancaires')).toBe('Cartes Bancaires');
    expect(cardBrandName('link')).toBe('Link');
    expect(cardBrandName('  ')).toBe('Card');
  });
  it('says the card and the update in the same words everywhere', () => {
    expect(cardText({ brand: 'visa', last4: '4242' })).toBe('Visa ending 4242');
    expect(CARD_UPDATE_TEXTS.updated({ brand: 'mastercard', last4: '4444' })).toBe('Card updated: Mastercard ending 4444');
  });
});
