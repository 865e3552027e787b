import { afterEach } from 'vitest';

// Component tests run in jsdom (a `@vitest-environment jsdom` comment); the rest run in node.
if (typeof window !== 'undefined') {
  // jsdom lays nothing out; CodeMirror measures text ranges, which then have no boxes
  if (!Range.prototype.getClientRects) {
    Range.prototype.getClientRects = () => document.createElement('div').getClientRects();
    Range.prototype.getBoundingClientRect = () => document.createElement('div').getBoundingClientRect();
  }
  const { cleanup } = await import('@testing-library/react');
  afterEach(() => {
    cleanup();
    sessionStorage.clear();
    window.location.hash = '';
  });
}
