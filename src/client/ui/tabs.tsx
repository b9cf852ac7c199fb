import { useId, useRef, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { tabForKey } from './roving-tabs.js';

export type TabItem<T extends string> = { id: T; label: string };

/** The ids that tie a tab to its panel: `${prefix}-tab-${id}` and `${prefix}-panel-${id}`. */
export function tabIds(prefix: string, id: string): { tab: string; panel: string } {
  return { tab: `${prefix}-tab-${id}`, panel: `${prefix}-panel-${id}` };
}

type TabsProps<T extends string> = {
  /** The tab list's accessible name ("Admin sections"). */
  label: string;
  tabs: readonly TabItem<T>[];
  selected: T;
  onSelect: (id: T) => void;
  /** Stable ids for the tabs and panels (e.g. `admin` → admin-tab-orders); a generated one otherwise. */
  idPrefix?: string;
  /** The list's look; each use keeps its own (underline strip, segmented control, grid). */
  listClassName: string;
  tabClassName: (selected: boolean) => string;
  listRef?: Ref<HTMLDivElement>;
  /** Shown between the list and the panel (a notice about the whole set of tabs). */
  beforePanel?: ReactNode;
  panelClassName?: string;
  /**
   * Every panel stays mounted (the others hidden), so switching tabs never drops what was typed;
   * `children` is then called once per tab. Otherwise only the selected tab's panel is drawn.
   */
  keepMounted?: boolean;
  children: ReactNode | ((id: T) => ReactNode);
};

/**
 * A set of tabs and their panel, as WAI-ARIA's tabs pattern has them: the selected tab alone is in
 * the Tab order; arrow keys, Home and End move to another tab and select it (automatic activation).
 */
export function Tabs<T extends string>({
  label,
  tabs,
  selected,
  onSelect,
  idPrefix,
  listClassName,
  tabClassName,
  listRef,
  beforePanel,
  panelClassName,
  keepMounted = false,
  children,
}: TabsProps<T>) {
  const generated = useId();
  const prefix = idPrefix ?? generated;
  const refs = useRef<Partial<Record<string, HTMLButtonElement | null>>>({});
  const panelOf = (id: T) => (typeof children === 'function' ? children(id) : children);

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    const target = tabForKey(e.key, tabs, selected);
    if (!target) return;
    e.preventDefault();
    onSelect(target.id);
    refs.current[target.id]?.focus();
  };

  // One panel element whichever tab is selected (unless each stays mounted): what it holds keeps its
  // state across a switch when the tabs draw the same component.
  const panel = (id: T, hidden: boolean) => (
    <div
      key={keepMounted ? id : 'panel'}
      role="tabpanel"
      id={tabIds(prefix, id).panel}
      aria-labelledby={tabIds(prefix, id).tab}
      hidden={hidden}
      className={panelClassName}
    >
      {panelOf(id)}
    </div>
  );

  return (
    <>
      <div ref={listRef} role="tablist" aria-label={label} className={listClassName}>
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
              id={tabIds(prefix, t.id).tab}
              aria-selected={isSelected}
              aria-controls={tabIds(prefix, t.id).panel}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(t.id)}
              onKeyDown={onKeyDown}
              className={tabClassName(isSelected)}
            >
              {t.label}
            </button>
          );
        })}
      </div>
      {beforePanel}
      {keepMounted ? tabs.map((t) => panel(t.id, t.id !== selected)) : panel(selected, false)}
    </>
  );
}
