import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '../../shared/schemas/admin/messages.js';
import { REVIEW_MESSAGES } from '../../shared/reviews.js';
import { fieldOfMessage } from './review-form.js';

describe('a refused review’s sentence is shown beside its field', () => {
  it.each([
    [REVIEW_MESSAGES.ratingRequired, 'rating'],
    [REVIEW_MESSAGES.titleRequired, 'title'],
    [REVIEW_MESSAGES.titleTooLong, 'title'],
    [REVIEW_MESSAGES.bodyTooShort, 'body'],
    [REVIEW_MESSAGES.bodyTooLong, 'body'],
    [REVIEW_MESSAGES.displayNameRequired, 'displayName'],
    [REVIEW_MESSAGES.displayNameTooLong, 'displayName'],
    [REVIEW_MESSAGES.tooManyPhotos, 'photos'],
    [ADMIN_MESSAGES.imageType, 'photos'],
    [ADMIN_MESSAGES.imageSize, 'photos'],
    [ADMIN_MESSAGES.imageUnreadable, 'photos'],
    [ADMIN_MESSAGES.imageDimensions(9000, 100), 'photos'],
  ])('%s → %s', (message, field) => {
    expect(fieldOfMessage(message)).toBe(field);
  });

  it.each([REVIEW_MESSAGES.alreadyReviewed, REVIEW_MESSAGES.needsOrder, REVIEW_MESSAGES.linkUsed, 'Please try again'])(
    '%s → the top of the form',
    (message) => {
      expect(fieldOfMessage(message)).toBeNull();
    },
  );
});
