import { useEffect, useId, useState } from 'react';
import { SearchIcon } from '../../ui/icons.js';

const SEARCH_DEBOUNCE_MS = 300;

/** A search field that reports its text after the shopper pauses typing. */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (text: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  // Follow outside changes (e.g. Clear Filters, back button) without fighting the user's typing.
  const [lastValue, setLastValue] = useState(value);
  if (value !== lastValue) {
    setLastValue(value);
    setText(value);
  }

  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);

  return (
    <div className="relative w-full sm:max-w-sm">
      <label htmlFor={id} className="sr-only">
        Search products
      </label>
      <SearchIcon size={18} className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-stone-500" />
      <input
        id={id}
        type="search"
        value={text}
        maxLength={100}
        onChange={(e) => setText(e.currentTarget.value)}
        placeholder="Search products..."
        autoComplete="off"
        className="h-11 w-full rounded-md border border-stone-400 bg-white pl-10 pr-3 text-base text-stone-900 placeholder:text-stone-500 focus-visible:border-brand-600 focus-visible:outline-2 focus-visible:outline-brand-600"
      />
    </div>
  );
}
