import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { securityHeaders } from './security-headers.js';

/** What a caller is told when an address cannot be read (a stray `%`, a broken escape). */
export const BAD_URL_MESSAGE =
  'This address cannot be read: it has a "%" that is not followed by two hexadecimal digits. Check the link and try again.';
/** ... and when one part of it (a link's token, a product's id) is longer than any the shop makes. */
export const LONG_URL_PART_MESSAGE = 'A part of this address is longer than any link the shop makes. Check the link and try again.';

/**
 * Fastify's `frameworkErrors`: the router's own refusals, made before any route or hook runs. Its
 * default answers echo the whole address back ("'…' is not a valid url component", with "Bad
 * Request" as the error); here they answer as every other refusal does, `{ error: <sentence> }`.
 */
export function frameworkErrorAnswer(config: Pick<Config, 'publicUrl'>) {
  // No hook runs for these answers: the security headers are put on here.
  const headers = securityHeaders(config);
  return (error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void => {
    const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
    void reply
      .code(status)
      .headers(headers)
      .header('cache-control', 'no-store')
      .send({ error: status === 414 ? LONG_URL_PART_MESSAGE : BAD_URL_MESSAGE });
  };
}
