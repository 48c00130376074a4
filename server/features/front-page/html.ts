import { escapeHtml } from "../../mcp/kit";
/**
 * Building HTML safely: `html` is a tagged template that escapes every interpolated value unless it
 * is itself markup made by `html`. Names, descriptions and the request's Host all reach the page, so
 * escaping is the default and only `html` can produce markup.
 */

/** Markup produced by `html`: interpolated as is; anything else is text and gets escaped. */
export class SafeHtml {
  constructor(readonly markup: string) {}
}

/** What `html` accepts: markup, text, numbers, lists of them, and nothing (`undefined`, `false`) for conditional parts. */
export type HtmlValue = SafeHtml | string | number | false | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === undefined || value === null || value === false) return "";
  return escapeHtml(String(value));
}

/**
 * Markup from a template literal; each interpolated value is escaped unless it is `SafeHtml`.
 * @example html`<li>${tool.descriptor.name}</li>` // a name holding "<script>" stays text
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let markup = strings[0]!;
  values.forEach((value, i) => {
    markup += render(value) + strings[i + 1]!;
  });
  return new SafeHtml(markup);
}
