import { describe, expect, it } from 'vitest';
import { applyDesignTokens } from './design-tokens.ts';
import { deployment } from './deployment.ts';

describe('design tokens', () => {
  it("sets --brand from the deployment's mainColor", () => {
    const root = document.createElement('div');
    applyDesignTokens(root);
    expect(root.style.getPropertyValue('--brand')).toBe(deployment.mainColor);
    applyDesignTokens(root, '#aa3300');
    expect(root.style.getPropertyValue('--brand')).toBe('#aa3300');
  });
});
