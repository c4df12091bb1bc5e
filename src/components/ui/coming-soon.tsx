/** Screens of later issues: the route, its guard and its menu entry exist; the screen itself is next. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <section className="page">
      <h1>{title}</h1>
      <p className="muted">Esta sección estará disponible próximamente.</p>
    </section>
  );
}
