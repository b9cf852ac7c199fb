import Handlebars from 'handlebars';
import { defaultEmailTemplates } from './default-templates.js';

/**
 * Which `{{variables}}` a template may use, checked on Handlebars' own parse tree: a regex cannot
 * tell `{{name}}` of the order from `{{name}}` of a line item inside `{{#each items}}`, nor a
 * helper (`{{#if}}`, `{{#each}}`) from a variable. A name the shop never sends renders as nothing,
 * so an owner's typo (`{{ordernumber}}`) would quietly send e-mails with a hole in them.
 */

/**
 * Variables the shop still sends for templates edited before migration 0015 (see the top of
 * order-email-variables.ts): accepted so such a template can be saved again, not offered.
 */
const LEGACY_VARIABLES: Record<string, readonly string[]> = {
  'order-confirmation': ['itemsList', 'shippingAddress'],
  'order-status-update': ['trackingNumber', 'trackingSection', 'shippingAddress'],
  'shipping-notification': ['trackingNumber', 'carrier', 'trackingUrl', 'shippingAddress'],
};

const BUILT_IN_HELPERS = new Set(['if', 'unless', 'each', 'with', 'lookup', 'log']);

/** One level of data a part of the template sees: the names it has (null: not known, anything goes). */
type Scope = { names: Set<string> | null; sample: unknown; label: string };

type Node = {
  type: string;
  body?: Node[];
  path?: Node;
  params?: Node[];
  hash?: { pairs: { value: Node }[] };
  program?: Node | null;
  inverse?: Node | null;
  data?: boolean;
  depth?: number;
  parts?: string[];
  original?: string;
  escaped?: boolean;
};

export type UnknownVariable = { name: string; inside: string | null; known: string[] };

function keysOf(sample: unknown): Set<string> | null {
  if (Array.isArray(sample)) {
    const keys = new Set<string>();
    for (const item of sample) if (item && typeof item === 'object') for (const k of Object.keys(item)) keys.add(k);
    return keys.size ? keys : null;
  }
  return sample && typeof sample === 'object' ? new Set(Object.keys(sample)) : null;
}

function firstOf(sample: unknown): unknown {
  return Array.isArray(sample) ? (sample.find((x) => x && typeof x === 'object') ?? sample[0]) : sample;
}

/**
 * Walks the parse tree of each source with a stack of scopes: the template's variables at the top,
 * the item's fields inside `{{#each}}`, the object's inside `{{#with}}`. `nested` adds names known
 * inside blocks (the fields the built-in text itself uses there).
 */
function walkSources(
  sources: readonly string[],
  root: { names: readonly string[]; sample: Record<string, unknown>; nested?: ReadonlySet<string> },
  onPath: (name: string, scope: Scope, path: Node) => void,
): void {
  const rootScope: Scope = { names: new Set(root.names), sample: root.sample, label: '' };
  const resolve = (path: Node, scopes: Scope[]): Scope | undefined => {
    if (path.type !== 'PathExpression') return undefined;
    if (path.data) return path.parts?.[0] === 'root' ? rootScope : undefined;
    return scopes[scopes.length - 1 - (path.depth ?? 0)];
  };
  const headOf = (path: Node): string | undefined =>
    path.data ? (path.parts?.[0] === 'root' ? path.parts[1] : undefined) : path.parts?.[0];
  const sampleAt = (path: Node, scopes: Scope[]): unknown => {
    const scope = resolve(path, scopes);
    const head = headOf(path);
    if (!scope || !head || !scope.sample || typeof scope.sample !== 'object') return undefined;
    return (scope.sample as Record<string, unknown>)[head];
  };
  const visitPath = (path: Node, scopes: Scope[]) => {
    if (path.type !== 'PathExpression') return;
    const scope = resolve(path, scopes);
    const head = headOf(path);
    if (scope && head) onPath(head, scope, path);
  };
  const visitArgs = (node: Node, scopes: Scope[]) => {
    for (const p of node.params ?? []) visit(p, scopes);
    for (const pair of node.hash?.pairs ?? []) visit(pair.value, scopes);
  };
  const inner = (sample: unknown, label: string): Scope => {
    const names = keysOf(sample);
    if (names && root.nested) for (const n of root.nested) names.add(n);
    return { names, sample: firstOf(sample), label };
  };
  const visit = (node: Node | null | undefined, scopes: Scope[]): void => {
    if (!node) return;
    switch (node.type) {
      case 'Program':
        for (const child of node.body ?? []) visit(child, scopes);
        return;
      case 'PathExpression':
        visitPath(node, scopes);
        return;
      case 'MustacheStatement':
      case 'SubExpression': {
        const name = node.path?.original ?? '';
        if (node.path?.type === 'PathExpression' && BUILT_IN_HELPERS.has(name) && (node.params?.length ?? 0) > 0) visitArgs(node, scopes);
        else {
          visit(node.path, scopes);
          visitArgs(node, scopes);
        }
        return;
      }
      case 'BlockStatement': {
        const name = node.path?.original ?? '';
        const subject = node.params?.[0];
        let body = scopes;
        if (node.path?.type === 'PathExpression' && BUILT_IN_HELPERS.has(name)) {
          visitArgs(node, scopes);
          if ((name === 'each' || name === 'with') && subject)
            body = [...scopes, inner(sampleAt(subject, scopes), `{{#${name} ${subject.original ?? ''}}}`)];
        } else if (node.path) {
          // {{#items}}…{{/items}}: a section over a variable (a list repeats, an object is entered).
          visit(node.path, scopes);
          visitArgs(node, scopes);
          const sample = sampleAt(node.path, scopes);
          if (sample && typeof sample === 'object') body = [...scopes, inner(sample, `{{#${name}}}`)];
        }
        visit(node.program, body);
        visit(node.inverse, scopes);
        return;
      }
      default:
        // Text, comments, literals, partials (none are registered: compiling refuses them).
        return;
    }
  };
  for (const source of sources) visit(Handlebars.parse(source) as unknown as Node, [rootScope]);
}

/**
 * The names a template uses that its data does not have, or an empty list. Throws Handlebars'
 * own error for a source that does not parse (the caller reports it as the template's error).
 */
export function unknownVariables(
  sources: readonly string[],
  root: { names: readonly string[]; sample: Record<string, unknown>; nested?: ReadonlySet<string> },
): UnknownVariable[] {
  const found = new Map<string, UnknownVariable>();
  walkSources(sources, root, (name, scope) => {
    if (!scope.names || scope.names.has(name)) return;
    const key = `${scope.label}|${name}`;
    if (!found.has(key)) found.set(key, { name, inside: scope.label || null, known: [...scope.names].sort() });
  });
  return [...found.values()];
}

/** The names the built-in text itself uses inside blocks (`{{name}}` of a line item), per template. */
function namesInsideBlocks(sources: readonly string[], names: readonly string[], sample: Record<string, unknown>): Set<string> {
  const inside = new Set<string>();
  walkSources(sources, { names, sample }, (name, scope) => {
    if (scope.label) inside.add(name);
  });
  return inside;
}

/** What a template may use: a built-in one its declared `variables` (legacy ones still accepted); the owner's own, the ones listed. */
export function templateVocabulary(
  id: string,
  listed: readonly string[],
  sample: Record<string, unknown>,
): { names: string[]; offered: string[]; nested?: Set<string>; builtIn: boolean } {
  const builtIn = defaultEmailTemplates.find((t) => t.id === id);
  if (!builtIn) return { names: [...listed], offered: [...listed], builtIn: false };
  const sources = [builtIn.subject, builtIn.html, builtIn.text];
  return {
    names: [...builtIn.variables, ...(LEGACY_VARIABLES[id] ?? [])],
    offered: [...builtIn.variables],
    nested: namesInsideBlocks(sources, builtIn.variables, sample),
    builtIn: true,
  };
}

/** The owner's sentence for what was found: the names, and what the template can use instead. */
export function unknownVariablesMessage(unknown: readonly UnknownVariable[], offered: readonly string[]): string {
  const top = unknown.filter((u) => !u.inside);
  const nested = unknown.filter((u) => u.inside);
  const parts: string[] = [];
  if (top.length)
    parts.push(
      `Unknown variable${top.length > 1 ? 's' : ''} ${top.map((u) => `{{${u.name}}}`).join(', ')}. This template can use: ${
        offered.length ? offered.map((v) => `{{${v}}}`).join(', ') : 'no variables (list one under Variables first)'
      }.`,
    );
  for (const u of nested)
    parts.push(`Unknown field {{${u.name}}} inside ${u.inside}: there each item has ${u.known.map((v) => `{{${v}}}`).join(', ')}.`);
  return parts.join(' ');
}

/**
 * Pieces the shop itself builds as HTML, escaping whatever a visitor typed inside them, for
 * templates edited before migration 0015: the only names that may be drawn unescaped.
 */
const PRE_RENDERED_HTML = new Set(['itemsList', 'trackingSection']);

/**
 * The outputs a template draws unescaped (`{{{name}}}` or `{{&name}}`) other than the shop's own
 * pre-rendered pieces, as the owner wrote them. Refused everywhere (decision 0041): nearly every
 * variable carries text a visitor chose (names, addresses, messages, the e-mail address itself),
 * and none loses anything by being escaped. Throws Handlebars' error for a source that does not parse.
 */
export function unescapedOutputs(sources: readonly string[]): string[] {
  const found = new Set<string>();
  for (const source of sources)
    eachVisitorUnescaped(Handlebars.parse(source) as unknown as Node, (node) => found.add(node.path?.original ?? ''));
  return [...found];
}

/** Calls `onFound` with each unescaped output in the tree that is not one of the shop's pre-rendered pieces. */
function eachVisitorUnescaped(node: Node | null | undefined, onFound: (node: Node) => void): void {
  if (!node) return;
  if (node.type === 'Program') for (const child of node.body ?? []) eachVisitorUnescaped(child, onFound);
  if (node.type === 'BlockStatement') {
    eachVisitorUnescaped(node.program, onFound);
    eachVisitorUnescaped(node.inverse, onFound);
  }
  if (node.type !== 'MustacheStatement' || node.escaped !== false) return;
  const plain = node.path?.type === 'PathExpression' && !node.params?.length && !node.hash?.pairs.length;
  if (!plain || !PRE_RENDERED_HTML.has(node.path?.original ?? '')) onFound(node);
}

/**
 * The HTML body's parse tree with every unescaped output but the pre-rendered pieces escaped, for
 * rendering: a template saved before three braces were refused still never draws a visitor's text as HTML.
 */
export function escapedHtmlProgram(source: string): ReturnType<typeof Handlebars.parse> {
  const program = Handlebars.parse(source);
  eachVisitorUnescaped(program as unknown as Node, (node) => {
    node.escaped = true;
  });
  return program;
}

/** The owner's sentence for unescaped outputs: which, and what to write instead. */
export function unescapedOutputMessage(names: readonly string[]): string {
  const list = names.map((n) => `{{{${n}}}}`).join(', ');
  const fixed = names.map((n) => `{{${n}}}`).join(', ');
  return `${list} would put the text as it was typed into the e-mail, HTML and all, and ${
    names.length > 1 ? 'these variables hold' : 'this variable holds'
  } text a visitor can set. Use two braces instead (${fixed}): the text then shows exactly as typed.`;
}
