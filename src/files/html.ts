/**
 * Escapes text for HTML.
 * @param text - any text
 * @returns the text with `&`, `<`, `>`, `"` and `'` as character references
 */
export const html = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
