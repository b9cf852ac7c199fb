import Handlebars from 'handlebars';
import { escapedHtmlProgram } from './template-variables.js';

/**
 * Logic-less rendering: `{{var}}` escapes, so a customer's name cannot inject markup, and so does
 * `{{{var}}}` in the HTML body (saving refuses it; a template stored before that still escapes), but
 * for the shop's own pre-rendered pieces. Subjects and text bodies are plain text and rendered
 * without HTML escaping.
 */
const hb = Handlebars.create();
const cache = new Map<string, HandlebarsTemplateDelegate>();

function compile(source: string, escape: boolean): HandlebarsTemplateDelegate {
  const key = `${escape ? 'h' : 't'}:${source}`;
  let fn = cache.get(key);
  if (!fn) {
    // HTML: `{{{name}}}` in a template saved before they were refused is escaped all the same.
    fn = hb.compile(escape ? escapedHtmlProgram(source) : source, { noEscape: !escape, strict: false, knownHelpersOnly: true });
    if (cache.size > 500) cache.clear();
    cache.set(key, fn);
  }
  return fn;
}

type RenderableTemplate = { subject: string; html: string; text: string | null };
export type RenderedEmail = { subject: string; html: string; text: string };

export function renderTemplate(
  template: RenderableTemplate,
  htmlVars: Record<string, unknown>,
  textVars: Record<string, unknown> = htmlVars,
): RenderedEmail {
  const html = compile(template.html, true)(htmlVars);
  const subject = compile(
    template.subject,
    false,
  )(textVars)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const text = template.text ? compile(template.text, false)(textVars) : htmlToText(html);
  return { subject, html, text };
}

/** A readable plain-text fallback for templates saved without a text body. */
function htmlToText(html: string): string {
  return html
    .replace(/<(style|title|head)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<a [^>]*href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/gi, '$2 ($1)')
    .replace(/<br\s*\/?>|<\/(p|div|tr|h[1-6]|li)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
