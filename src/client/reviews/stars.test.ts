import { describe, expect, it } from 'vitest';
import { ratingLabel } from '../../shared/reviews.js';
import { starsLabel } from './stars.js';

describe('the stars’ label on the cards', () => {
  it('says what shared/reviews.ts ratingLabel says, for every average and a few counts', () => {
    for (let tenths = 0; tenths <= 50; tenths++)
      for (const count of [0, 1, 2, 12, 1000]) expect(starsLabel(tenths / 10, count)).toBe(ratingLabel(tenths / 10, count));
  });
});
