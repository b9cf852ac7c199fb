import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SelectPageBox, selectColumn, type Selection } from './bulk.js';

const none: Selection = {
  selected: new Set(),
  ids: [],
  has: () => false,
  toggle: () => {},
  setMany: () => {},
  clear: () => {},
};
const rows = [{ id: 'a' }, { id: 'b' }];

function heading(busy: boolean) {
  const col = selectColumn(none, rows, (r) => r.id, { all: 'Select all on page', row: (r) => `Select ${r.id}` }, busy);
  return renderToString(<>{col.heading}</>);
}

describe('select all on this page', () => {
  it('can be used when the list shows its own result', () => {
    expect(heading(false)).not.toContain('disabled');
    expect(renderToString(<SelectPageBox selection={none} ids={['a', 'b']} />)).not.toContain('disabled');
  });

  it('is disabled while the list still shows the previous result, so it cannot pick the rows being left', () => {
    expect(heading(true)).toContain('disabled');
    expect(renderToString(<SelectPageBox selection={none} ids={['a', 'b']} busy />)).toContain('disabled');
  });

  it('is disabled on an empty page', () => {
    expect(renderToString(<SelectPageBox selection={none} ids={[]} />)).toContain('disabled');
  });
});
