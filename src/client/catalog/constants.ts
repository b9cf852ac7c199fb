/**
 * Same value as HIDDEN_HOME_CATEGORY_ID in src/shared/schemas/catalog.ts (the accessories
 * category, shown as "Other", has no home tile). Repeated here because importing any value from
 * that module evaluates its zod schemas and would pull zod into the first-load bundle;
 * catalog-constants.test.ts keeps the two equal.
 */
export const HOME_HIDDEN_CATEGORY_ID = 'accessories';
