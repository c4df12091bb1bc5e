/**
 * The popup message is stored the way the original product stored it, with a <br> per line break, and is
 * read by other apps that may render it as HTML. So what an admin types is stored HTML-escaped: the only
 * markup ever in it is <br> (a database constraint refuses anything else), and this screen turns it back
 * into plain text, never into HTML.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const UNESCAPES: Record<string, string> = Object.fromEntries(Object.entries(ESCAPES).map(([raw, html]) => [html, raw]));

export function messageToStored(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!).replace(/\r\n?|\n/g, '<br>');
}

export function storedToMessage(stored: string): string {
  return stored.replace(/<br\s*\/?>/gi, '\n').replace(/&(amp|lt|gt|quot|#39);/g, (entity) => UNESCAPES[entity]!);
}
