/** What a public surface knows of who made a picture and who must be credited. */
export interface Credits {
  creator: string;
  credit: string;
  copyright: string;
}

/**
 * The credit line printed with a picture wherever it is shown outside: author, credit line and copyright
 * notice, each once ('Ana Ruiz · Agencia Sol · © 2026 Hoteles Sol'). Agencies often repeat the author in the
 * credit, which is then not said twice. Empty when the file says nothing.
 */
export function creditLine({ creator, credit, copyright }: Credits): string {
  const parts: string[] = [];
  for (const part of [creator, credit, copyright].map((text) => text.trim())) {
    if (part && !parts.some((said) => said.toLowerCase() === part.toLowerCase())) parts.push(part);
  }
  return parts.join(' · ');
}
