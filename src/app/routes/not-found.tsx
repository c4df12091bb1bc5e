/** Unknown paths show a bare page with the text 'ERROR' (spec section 2). */
export function NotFoundRoute() {
  return (
    <main id="main" className="bare-error">
      <h1>ERROR</h1>
    </main>
  );
}
