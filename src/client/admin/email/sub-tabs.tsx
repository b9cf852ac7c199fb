import { tabForKey } from '../../ui/roving-tabs.js';
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

type SubTab<T extends string> = { id: T; label: string };

/**
 * A segmented tab strip (WAI-ARIA tabs: arrow keys, Home and End move between tabs) and the panel
 * of the selected tab.
 */
export function SubTabs<T extends string>({
  label,
  tabs,
  selected,
  onSelect,
  children,
}: {
  label: string;
  tabs: readonly SubTab<T>[];
  selected: T;
  onSelect: (id: T) => void;
  children: ReactNode;
}) {
  const base = useId();
  const refs = useRef<Partial<Record<string, HTMLButtonElement | null>>>({});
  const tabId = (id: string) => `${base}-tab-${id}`;
  const panelId = (id: string) => `${base}-panel-${id}`;

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const tab = tabForKey(e.key, tabs, selected);
    if (!tab) return;
    e.preventDefault();
    onSelect(tab.id);
    refs.current[tab.id]?.focus();
  };

  return (
    <div className="flex min-w-0 flex-col gap-4">
      {/* Arrow keys, Home and End move between the tabs (WAI-ARIA tabs pattern): the tab buttons are what takes focus. */}
      {/* eslint-disable-next-line jsx-a11y/interactive-supports-focus */}
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="inline-flex w-full gap-1 self-start rounded-lg bg-stone-100 p-1 sm:w-auto"
      >
        {tabs.map((t) => {
          const isSelected = t.id === selected;
          return (
            <button
              key={t.id}
              ref={(el) => {
                refs.current[t.id] = el;
              }}
              type="button"
              role="tab"
              id={tabId(t.id)}
              aria-selected={isSelected}
              aria-controls={panelId(t.id)}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(t.id)}
              className={`flex-1 whitespace-nowrap rounded-md px-4 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:flex-none ${
                isSelected ? 'bg-white text-stone-900 shadow-sm' : 'text-stone-700 hover:text-stone-900'
              }`}
            >
              {t.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={panelId(selected)} aria-labelledby={tabId(selected)} className="min-w-0">
        {children}
      </div>
    </div>
  );
}
