import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { tabForKey } from './roving-tabs.js';
import { Tabs } from './tabs.js';

const TABS = [
  { id: 'one', label: 'One' },
  { id: 'two', label: 'Two' },
  { id: 'three', label: 'Three' },
] as const;
type Id = (typeof TABS)[number]['id'];

function draw(selected: Id, keepMounted = false) {
  return renderToString(
    <Tabs
      label="Sections"
      tabs={TABS}
      selected={selected}
      onSelect={() => {}}
      idPrefix="t"
      listClassName="list"
      tabClassName={(on) => (on ? 'on' : 'off')}
      keepMounted={keepMounted}
    >
      {(id) => <p>{`panel ${id}`}</p>}
    </Tabs>,
  );
}

describe('Tabs', () => {
  it('draws a named tab list whose selected tab alone is in the Tab order and controls the one panel', () => {
    const out = draw('two');
    expect(out).toContain('role="tablist" aria-label="Sections" class="list"');
    expect(out).toContain('role="tab" id="t-tab-two" aria-selected="true" aria-controls="t-panel-two" tabindex="0" class="on"');
    expect(out).toContain('role="tab" id="t-tab-one" aria-selected="false" aria-controls="t-panel-one" tabindex="-1" class="off"');
    expect(out).toContain('role="tabpanel" id="t-panel-two" aria-labelledby="t-tab-two"');
    expect(out).toContain('panel two');
    expect(out).not.toContain('panel one');
  });

  it('keeps every panel mounted when asked, the others hidden', () => {
    const out = draw('one', true);
    expect(out.match(/role="tabpanel"/g)).toHaveLength(3);
    expect(out).toMatch(/id="t-panel-two" aria-labelledby="t-tab-two" hidden=""/);
    expect(out).not.toMatch(/id="t-panel-one"[^>]*hidden/);
  });
});

describe('tabForKey (arrow keys, Home and End)', () => {
  it('moves round the list and to either end, and ignores other keys', () => {
    expect(tabForKey('ArrowRight', TABS, 'three')?.id).toBe('one');
    expect(tabForKey('ArrowLeft', TABS, 'one')?.id).toBe('three');
    expect(tabForKey('ArrowRight', TABS, 'one')?.id).toBe('two');
    expect(tabForKey('Home', TABS, 'three')?.id).toBe('one');
    expect(tabForKey('End', TABS, 'one')?.id).toBe('three');
    expect(tabForKey('Enter', TABS, 'one')).toBeUndefined();
  });
});
