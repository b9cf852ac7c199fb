import { type ReactNode } from 'react';
import { Tabs, type TabItem } from '../../ui/tabs.js';

/**
 * A segmented tab strip of the back office (ui/tabs.tsx: arrow keys, Home and End move between
 * tabs) and the panel of the selected tab. On a phone the tabs wrap rather than scroll out of sight.
 */
export function SubTabs<T extends string>({
  label,
  tabs,
  selected,
  onSelect,
  children,
}: {
  label: string;
  tabs: readonly TabItem<T>[];
  selected: T;
  onSelect: (id: T) => void;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <Tabs
        label={label}
        tabs={tabs}
        selected={selected}
        onSelect={onSelect}
        listClassName="inline-flex w-full flex-wrap gap-1 self-start rounded-lg bg-stone-100 p-1 sm:w-auto"
        tabClassName={(isSelected) =>
          `flex-1 whitespace-nowrap rounded-md px-3 py-2 text-sm sm:px-4 font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 sm:flex-none ${
            isSelected ? 'bg-white text-stone-900 shadow-sm' : 'text-stone-700 hover:text-stone-900'
          }`
        }
        panelClassName="min-w-0"
      >
        {children}
      </Tabs>
    </div>
  );
}
