/**
 * Entry names must be unique in a ZIP: 'foto.jpg', 'foto (2).jpg', … compared without case, with path
 * separators replaced so no entry lands in a folder. Stateful because the entries arrive a page at a time and
 * only the browser sees them all.
 */
export function createUniqueNamer(): (raw: string) => string {
  const used = new Set<string>();
  return (raw) => {
    const name = raw.replaceAll('/', '_').replaceAll('\\', '_') || 'archivo';
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; used.has(candidate.toLowerCase()); n += 1) candidate = `${stem} (${n})${extension}`;
    used.add(candidate.toLowerCase());
    return candidate;
  };
}
