import type { ReviewPhoto } from '../../shared/reviews.js';

/**
 * How an edit names a photo it keeps (`keepPhotos`): its id when the answer carries one, else its
 * address, which is as unique (each upload gets a file of its own).
 */
export function photoId(photo: ReviewPhoto & { id?: string }): string {
  return photo.id ?? photo.url;
}
