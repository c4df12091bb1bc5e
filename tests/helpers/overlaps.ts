import type { Page } from 'playwright-core';

/**
 * Pairs of things on screen that cover each other: runs of text (as drawn, clipped by any ancestor that
 * clips) and form controls and icon-only buttons. Pictures are left out on purpose: a badge, a checkbox or
 * an info button over a thumbnail is a design, text over text or over a control is a broken screen. A thing
 * and its own ancestor never count; hidden, transparent and visually-hidden things are skipped.
 */
export async function overlappingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    interface Box {
      element: Element;
      left: number;
      top: number;
      right: number;
      bottom: number;
    }
    const visible = (element: Element) => {
      for (let node: Element | null = element; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) === 0) return false;
      }
      return true;
    };
    /**
     * The rectangle an element is drawn in: what its ancestors (and, for text, its own box: an ellipsis)
     * let show where their overflow is not visible.
     */
    const clipOf = (element: Element, inclusive: boolean) => {
      let clip = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
      for (let node = inclusive ? element : element.parentElement; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
          const rect = node.getBoundingClientRect();
          clip = {
            left: Math.max(clip.left, rect.left),
            top: Math.max(clip.top, rect.top),
            right: Math.min(clip.right, rect.right),
            bottom: Math.min(clip.bottom, rect.bottom),
          };
        }
      }
      return clip;
    };
    const boxes: Box[] = [];
    /**
     * A sticky bar that is stuck (the file form's Guardar, the selection bar while scrolling) floats over the
     * content by design; in its place in the flow it must overlap nothing, like anything else.
     */
    const stuck = new Set<Element>();
    for (const element of document.querySelectorAll('*')) {
      if (getComputedStyle(element).position !== 'sticky') continue;
      const before = element.getBoundingClientRect();
      const html = element as HTMLElement;
      const previous = html.style.position;
      html.style.position = 'static';
      const after = element.getBoundingClientRect();
      html.style.position = previous;
      if (Math.abs(before.top - after.top) > 1 || Math.abs(before.left - after.left) > 1) stuck.add(element);
    }
    const floating = (element: Element) => [...stuck].some((bar) => bar.contains(element));
    const add = (
      element: Element,
      rect: DOMRect | { left: number; top: number; right: number; bottom: number },
      inclusive = false,
    ) => {
      if (floating(element)) return;
      const clip = clipOf(element, inclusive);
      const box = {
        element,
        left: Math.max(rect.left, clip.left),
        top: Math.max(rect.top, clip.top),
        right: Math.min(rect.right, clip.right),
        bottom: Math.min(rect.bottom, clip.bottom),
      };
      if (box.right - box.left > 2 && box.bottom - box.top > 2) boxes.push(box);
    };

    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !node.textContent?.trim() || !visible(parent)) continue;
      if (parent.closest('[data-sonner-toaster], script, style, noscript, .visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) add(parent, rect, true);
    }
    for (const control of document.querySelectorAll('input, select, textarea, button, [role="switch"]')) {
      if (control instanceof HTMLInputElement && control.type === 'hidden') continue;
      if (control.matches('button') && control.textContent?.trim()) continue; // its text is measured above
      if (!visible(control)) continue;
      add(control, control.getBoundingClientRect());
    }

    const describe = (element: Element) => {
      const text = (element.textContent ?? '').trim().slice(0, 40);
      const label = element.getAttribute('aria-label');
      return `<${element.tagName.toLowerCase()}${element.className ? ` class="${String(element.className)}"` : ''}>${label ?? text}`;
    };
    const found: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        if (a.element === b.element || a.element.contains(b.element) || b.element.contains(a.element)) continue;
        const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (width > 2 && height > 2) found.push(`${describe(a.element)} × ${describe(b.element)}`);
      }
    }
    return [...new Set(found)];
  });
}

/** How many pixels the page is wider than the screen: anything above 0 makes a phone scroll sideways. */
export async function sidewaysOverflow(page: Page): Promise<number> {
  // Never below 0: with `scrollbar-gutter: stable` a page narrower than the window reports a negative width.
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth));
}
