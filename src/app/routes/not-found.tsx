/**
 * Unknown paths show a bare page with the text 'ERROR'. Inside the app shell there is a
 * <main> already, so only the top-level page brings its own landmark.
 */
export function NotFoundRoute({ insideShell = false }: { insideShell?: boolean }) {
  const content = <h1>ERROR</h1>;
  if (insideShell) return <div className="bare-error">{content}</div>;
  return (
    <main id="main" className="bare-error">
      {content}
    </main>
  );
}
