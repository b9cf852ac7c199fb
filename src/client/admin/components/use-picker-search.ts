import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { adminGet } from '../api/admin-api.js';

/** The smallest search a picker sends: one letter matches too much to be a help. */
const MIN_SEARCH = 2;

/**
 * A search-as-you-type picker's state: the text typed, the search sent 250 ms after the last key,
 * and the first six matches of an admin list (its own `search` parameter), the previous ones kept
 * while the next arrive.
 */
export function usePickerSearch<S extends z.ZodType<{ items: unknown[] }>>(path: string, schema: S, key: string) {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const id = setTimeout(() => setSearch(text.trim()), 250);
    return () => clearTimeout(id);
  }, [text]);
  const searching = search.length >= MIN_SEARCH;
  const { data, isFetching } = useQuery({
    queryKey: ['admin', key, 'picker', search] as const,
    queryFn: ({ signal }) => adminGet(path, schema, { page: 1, pageSize: 6, search }, signal),
    enabled: searching,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const results = (searching ? (data?.items ?? []) : []) as z.output<S>['items'];
  return { text, setText, searching, results, isFetching };
}
