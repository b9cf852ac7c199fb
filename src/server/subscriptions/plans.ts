/**
 * The plans' read lives beneath the modules (lib/subscription-plans.ts): the catalogue and the cart,
 * below this module, price and show with it too.
 */
export { offers, plansForVariants, type ResolvedPlan } from '../lib/subscription-plans.js';
