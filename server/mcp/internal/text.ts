/**
 * At most `max` characters of `text` (with an ellipsis when cut): client-sent values never reach a message whole.
 * @example throw invalidParams(`Nothing is served at ${clip(uri)}`, { uri: clip(uri, 2048) });
 */
export const clip = (text: string, max = 200): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/**
 * Escapes text for an element's content or a quoted attribute value.
 * @example const line = `<p>Signed in as <strong>${escapeHtml(principal)}</strong>.</p>`;
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
