import { useState, type FormEvent } from 'react';
import { Button } from '../../ui/button.js';
import { ApiError } from '../../lib/api-client.js';
import { inputCls } from '../components/admin-ui.js';
import { orderSearchProblem } from '../../../shared/schemas/order-search.js';

/**
 * The order list's search box. A search the server would refuse (too long, too many words) is
 * refused here with the schema's own sentence under the box, and so is one that reached the server
 * from a link (its 400): the list never silently stands for a search other than the one typed.
 */
export function OrderSearchBox({ search, error, onSearch }: { search: string; error: unknown; onSearch: (q: string) => void }) {
  const [text, setText] = useState(search);
  const [problem, setProblem] = useState<string | null>(null);
  const refused = error instanceof ApiError && error.status === 400 && search !== '' ? error.message : null;
  const message = problem ?? refused;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = orderSearchProblem(text);
    setProblem(found);
    if (!found) onSearch(text.trim());
  };

  return (
    <form role="search" onSubmit={submit} noValidate className="flex min-w-0 flex-1 flex-col gap-1 lg:min-w-72">
      <div className="flex gap-2">
        <label htmlFor="order-search" className="sr-only">
          Search orders
        </label>
        <input
          id="order-search"
          type="search"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (problem) setProblem(orderSearchProblem(e.target.value));
          }}
          placeholder="Order, e-mail, name, product, SKU, tracking, city or $amount"
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? 'order-search-error' : undefined}
          className={inputCls}
        />
        <Button type="submit" variant="outline">
          Search
        </Button>
      </div>
      {message && (
        <p id="order-search-error" role="alert" className="text-sm text-red-700">
          {message}
        </p>
      )}
    </form>
  );
}
