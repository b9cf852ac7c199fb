import { usePickerSearch } from '../components/use-picker-search.js';
import { AdminUserPage } from '../api/admin-schemas.js';
import { inputCls } from '../components/admin-ui.js';

export type PickedCustomer = { id: string; label: string };
export const GUEST: PickedCustomer = { id: 'guest', label: 'Guest (no account)' };

/**
 * Picks the order's customer by searching names and e-mails (GET /api/admin/users?search=), or
 * Guest, instead of typing an internal id.
 */
export function CustomerPicker({
  value,
  onChange,
  error,
}: {
  value: PickedCustomer;
  onChange: (c: PickedCustomer) => void;
  error?: string;
}) {
  const { text, setText, searching, results, isFetching } = usePickerSearch('/api/admin/users', AdminUserPage, 'users');
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-stone-800" aria-live="polite">
        Selected: <strong data-testid="picked-customer">{value.label}</strong>
        {value.id !== GUEST.id && (
          <button type="button" className="ml-2 text-sm text-emerald-800 underline" onClick={() => onChange(GUEST)}>
            Make it a guest order
          </button>
        )}
      </p>
      <input
        id="order-customer-search"
        type="search"
        className={inputCls}
        placeholder="Search customers by name or e-mail"
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? 'order-user_id-error' : undefined}
        autoComplete="off"
      />
      {searching && (
        <ul className="flex max-h-56 flex-col overflow-y-auto rounded-md border border-stone-200" aria-label="Matching customers">
          {results.length === 0 && <li className="p-2 text-sm text-stone-700">{isFetching ? 'Searching…' : 'No customer matches.'}</li>}
          {results.map((u) => (
            <li key={u.id} className="border-t border-stone-100 first:border-t-0">
              <button
                type="button"
                className="flex w-full flex-col items-start p-2 text-left hover:bg-stone-50 focus-visible:bg-stone-50"
                onClick={() => {
                  onChange({ id: u.id, label: u.fullName ? `${u.fullName} <${u.email}>` : u.email });
                  setText('');
                }}
              >
                <span className="text-sm font-medium text-stone-900">{u.fullName || u.email}</span>
                <span className="break-all text-xs text-stone-700">{u.email}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
