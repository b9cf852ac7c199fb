import { z } from 'zod';
import { pageQuery } from './paging.js';

/**
 * The owner's state of a contact message (issue [2/8], migration 0036): a message arrives unread;
 * the owner marks it read or answered (and back). The texts the Messages tab and its tests share.
 */
export const CONTACT_MESSAGE_STATES = ['unread', 'read', 'answered'] as const;
export const ContactMessageState = z.enum(CONTACT_MESSAGE_STATES, {
  message: 'state must be one of: unread, read, answered',
});
export type ContactMessageState = z.infer<typeof ContactMessageState>;

export const CONTACT_MESSAGE_TEXTS = {
  stateLabel: { unread: 'Unread', read: 'Read', answered: 'Answered' } satisfies Record<ContactMessageState, string>,
  /** The filter's choices: every state, or one. */
  filterLabel: { all: 'All messages', unread: 'Unread', read: 'Read', answered: 'Answered' },
  markAs: { unread: 'Mark as unread', read: 'Mark as read', answered: 'Mark as answered' } satisfies Record<ContactMessageState, string>,
  notFound: 'Message not found',
  emptyAll: 'No messages yet. Messages sent with the contact form appear here.',
  emptyState: (state: ContactMessageState) => `No ${CONTACT_MESSAGE_TEXTS.stateLabel[state].toLowerCase()} messages.`,
  tabLabel: (unread: number) => (unread > 0 ? `Messages (${unread} unread)` : 'Messages'),
} as const;

/** GET /api/admin/contact-messages: a page, optionally of one state. */
export const ContactMessagesQuery = pageQuery(25).extend({ state: ContactMessageState.optional() }).strict();
export type ContactMessagesQuery = z.infer<typeof ContactMessagesQuery>;

/** PATCH /api/admin/contact-messages/:id/state */
export const ContactMessageStateInput = z.object({ state: ContactMessageState }).strict();
export type ContactMessageStateInput = z.infer<typeof ContactMessageStateInput>;

/** How many messages are in each state (the tab's unread count). */
export const ContactMessageCounts = z.object({ unread: z.number().int(), read: z.number().int(), answered: z.number().int() });
export type ContactMessageCounts = z.infer<typeof ContactMessageCounts>;
