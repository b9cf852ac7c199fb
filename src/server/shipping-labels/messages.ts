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
