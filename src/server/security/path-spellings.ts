/**
 * The same path spelled the ways an attacker tries to slip past a guard that reads the raw URL:
 * percent-encoded letters (lower- and upper-case hex), doubled slashes, dot segments, a trailing
 * slash, `;params`, an encoded slash between segments, and upper-case letters.
 */
export function spellings(path: string): string[] {
  const segments = path.split('/').slice(1);
  const join = (parts: string[]) => `/${parts.join('/')}`;
  const hex = (c: string) => c.charCodeAt(0).toString(16);
  const out = new Set<string>();
  segments.forEach((segment, i) => {
    const at = (replacement: string) => join(segments.map((s, j) => (j === i ? replacement : s)));
    const first = segment.search(/[a-z]/i);
    if (first >= 0) {
      // One letter escaped in lower-case hex, and every letter escaped in upper-case hex.
      out.add(at(`${segment.slice(0, first)}%${hex(segment[first]!)}${segment.slice(first + 1)}`));
      out.add(at(segment.replace(/[a-z]/gi, (c) => `%${hex(c).toUpperCase()}`)));
      out.add(at(segment.toUpperCase()));
    }
    out.add(at(`${segment};x=1`));
    const before = join(segments.slice(0, i)).replace(/^\/$/, '');
    const rest = segments.slice(i).join('/');
    out.add(`${before}//${rest}`);
    out.add(`${before}/./${rest}`);
    out.add(`${before}/x/../${rest}`);
    out.add(`${before}/%2e/${rest}`);
    if (i > 0) out.add(`${join(segments.slice(0, i))}%2F${rest}`);
    if (i > 0) out.add(`${join(segments.slice(0, i))}%2f${rest}`);
  });
  out.add(`${path}/`);
  out.add(`${path}//`);
  out.add(`${path}/.`);
  out.add(`${path}?x=/api/health`);
  out.add(`${path}#frag`);
  out.delete(path);
  return [...out];
}
