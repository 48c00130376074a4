/** At most `max` characters of `text` (with an ellipsis when cut): client-sent values never reach a message whole. */
export const clip = (text: string, max = 200): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Escapes text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
