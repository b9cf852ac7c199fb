/**
 * The variables a template uses, as its editor lists them: `{{name}}`, `{{{name}}}`, the object of a
 * dotted path (`tracking` of `{{tracking.url}}`) and the subjects of blocks (`{{#each items}}`,
 * `{{#if tracking}}`). Inside
 * an `{{#each}}` block the names are the item's own fields (`{{name}}` of a line item), so they are
 * not the template's variables and are left out.
 */
export function variablesUsed(source: string): string[] {
  let rest = source;
  // Innermost blocks first: a body with no further {{#each}} in it is replaced by a marker for its list.
  for (let before = ''; before !== rest;) {
    before = rest;
    rest = rest.replace(/\{\{#each\s+([A-Za-z][\w.]*)\s*\}\}(?:(?!\{\{#each\b)[\s\S])*?\{\{\/each\}\}/g, '{{#list $1}}');
  }
  const found = new Set<string>();
  for (const m of rest.matchAll(
    /\{\{\{?\s*(?:#(?:if|unless|with|each|list)\s+)?([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*)\s*\}?\}\}/g,
  )) {
    const name = m[1]?.split('.')[0];
    if (name && name !== 'else' && name !== 'this') found.add(name);
  }
  return [...found];
}
