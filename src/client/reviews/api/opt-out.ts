import { useMutation } from '@tanstack/react-query';
import { apiRequestWith } from '../../lib/api-client.js';
import { loadReviewSchemas } from './load-review-schemas.js';

/** "Stop review requests": the request e-mail's opt-out link, pressed on its page (one-click POST, RFC 8058). */
export function useOptOut(token: string) {
  return useMutation({
    mutationFn: () =>
      apiRequestWith(`/api/reviews/opt-out/${encodeURIComponent(token)}`, () => loadReviewSchemas().then((s) => s.MessageResponse), {
        method: 'POST',
      }),
    // A refusal (a link not genuine) is shown on the page: nothing for the console.
    onError: () => undefined,
  });
}
