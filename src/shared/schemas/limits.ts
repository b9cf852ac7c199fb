import type { z } from 'zod';
import { formatCount } from '../money.js';

/**
 * The sentences of limits, so every one reads alike ("Name cannot exceed 200 characters"). A
 * `.max()` without its own message makes zod reuse the field's ("Name is required" under a full
 * field) or answer its raw "Too big: …"; limit-messages.test.ts walks every schema for one.
 */
const count = formatCount;

export const tooLong = (label: string, max: number) => `${label} cannot exceed ${count(max)} characters`;
export const tooShort = (label: string, min: number) => `${label} must be at least ${count(min)} characters`;
export const tooMany = (label: string, max: number) => `${label} cannot exceed ${count(max)}`;
export const tooFew = (label: string, min: number) => `${label} must be at least ${count(min)}`;
export const tooManyItems = (label: string, max: number) => `At most ${count(max)} ${label}`;

type Checked = { _zod: { def: { type: string; checks?: { _zod: { def: { check: string; maximum?: number } } }[] } } };
type Wrapper = { _zod: { def: { innerType?: unknown; in?: unknown; out?: unknown } } };

/**
 * The longest text a field's schema takes, for its input's `maxLength`: read from the schema
 * itself, so the form and the server never hold two numbers. Looks through optional, nullable,
 * default, pipe and transform wrappers; undefined when the field has no upper limit.
 */
export function maxLengthOf(schema: z.ZodType | undefined): number | undefined {
  const seen = new Set<unknown>();
  const walk = (s: unknown): number | undefined => {
    if (!s || typeof s !== 'object' || !('_zod' in s) || seen.has(s)) return undefined;
    seen.add(s);
    const def = (s as Checked)._zod.def;
    for (const c of def.checks ?? []) if (c._zod.def.check === 'max_length') return c._zod.def.maximum;
    const w = (s as Wrapper)._zod.def;
    return walk(w.innerType) ?? walk(w.in) ?? walk(w.out);
  };
  return walk(schema);
}

/** {@link maxLengthOf} for each field of an object schema: `maxLength={max.name}`. */
export function maxLengths<S extends Record<string, z.ZodType>>(schema: { shape: S }): { [K in keyof S]: number | undefined } {
  return Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, maxLengthOf(v)])) as { [K in keyof S]: number | undefined };
}

/**
 * The longest text field `key` takes in a form's schema: an object schema, or a form schema piped
 * into its body (the body's field of the same name decides, as it does on the server).
 */
export function fieldMaxLength(schema: unknown, key: string): number | undefined {
  type Node = { shape?: Record<string, z.ZodType>; _zod?: { def: { in?: unknown; out?: unknown; innerType?: unknown } } };
  const seen = new Set<unknown>();
  const walk = (s: unknown): number | undefined => {
    if (!s || typeof s !== 'object' || seen.has(s)) return undefined;
    seen.add(s);
    const node = s as Node;
    const field = node.shape?.[key];
    const own = field ? maxLengthOf(field) : undefined;
    if (own !== undefined) return own;
    const def = node._zod?.def;
    return walk(def?.out) ?? walk(def?.in) ?? walk(def?.innerType);
  };
  return walk(schema);
}
