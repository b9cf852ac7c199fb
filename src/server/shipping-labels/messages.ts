/** The spec's ShipStation failure texts (section 8); ShipStation's own message follows after ': '. */
export const SHIPSTATION_MESSAGES = {
  carriers: 'Failed to fetch carriers',
  shipments: 'Failed to fetch shipments',
  createShipment: 'Failed to create ShipStation shipment',
  inventory: 'Failed to fetch inventory',
  updateInventory: 'Failed to update inventory',
  testOrder: 'Test Order Failed',
  sendOrder: 'Failed to send order to ShipStation',
  tracking: 'Failed to get tracking information',
  voidLabel: 'Failed to void the label at ShipStation',
} as const;

/** Printing an order's label from the shop. */
export const LABEL_FILE_MESSAGES = {
  noLabel: 'This order has no shipping label to print. Send it to ShipStation first.',
  noFile: 'ShipStation gave no printable file for this label: print it from ShipStation, or void it and buy another.',
} as const;

/**
 * Why a ShipStation call failed, told apart (issue 40): the owner's keys refused (401/403) is theirs
 * to fix in Settings; ShipStation not answering (5xx, a timeout, no connection) is not, and says so.
 * These follow the spec's fallback text after ': ', and the log names the same kind.
 */
export const SHIPSTATION_PROBLEMS = {
  keys: 'ShipStation rejected the API keys. Check the key (and secret for v1) in Settings → Integrations',
  unavailable: 'ShipStation is not answering; try again later. Your API keys were not the problem',
} as const;
export type ShipStationProblem = keyof typeof SHIPSTATION_PROBLEMS | 'refused';

/** Where the owner turns ShipStation on and enters its keys. */
export const SHIPSTATION_SETTINGS_PATH = '/admin?tab=settings&section=integrations';

/** Bulk "Buy labels" (and any label action) before ShipStation is set up: where to set it up. */
export const SHIPSTATION_NOT_SET_UP =
  'ShipStation is not set up, so no labels can be bought. Turn it on and enter its API key in Settings → Integrations.';
