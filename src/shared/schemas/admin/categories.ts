import { z } from 'zod';
import { tooLong } from '../limits.js';

// The Categories tab.

export const CATEGORY_MESSAGES = {
  idMin: 'ID must be at least 3 characters',
  idMax: 'ID cannot exceed 50 characters',
  idPattern: 'ID can only contain lowercase letters, numbers, and hyphens',
  nameMin: 'Name must be at least 2 characters',
  nameMax: 'Name cannot exceed 50 characters',
} as const;

export const CategoryInput = z
  .object({
    id: z
      .string()
      .trim()
      .min(3, CATEGORY_MESSAGES.idMin)
      .max(50, CATEGORY_MESSAGES.idMax)
      .regex(/^[a-z0-9-]+$/, CATEGORY_MESSAGES.idPattern),
    name: z.string().trim().min(2, CATEGORY_MESSAGES.nameMin).max(50, CATEGORY_MESSAGES.nameMax),
    description: z
      .string()
      .trim()
      .max(500, tooLong('Description', 500))
      .nullish()
      .transform((v) => v || null),
    imageUrl: z
      .string()
      .trim()
      .max(500, tooLong('Image address', 500))
      .nullish()
      .transform((v) => v || null),
  })
  .strict();
