import { deployment } from './deployment.ts';

/**
 * The brand colour comes from the deployment, not from the stylesheet: a deployment with
 * another mainColor restyles the whole app. Darker shades for text and hover are mixed from it in CSS.
 */
export function applyDesignTokens(root: HTMLElement, mainColor: string = deployment.mainColor): void {
  root.style.setProperty('--brand', mainColor);
}
