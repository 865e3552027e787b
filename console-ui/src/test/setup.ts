import { afterEach } from 'vitest';

// Component tests run in jsdom (a `@vitest-environment jsdom` comment); the rest run in node.
if (typeof window !== 'undefined') {
  const { cleanup } = await import('@testing-library/react');
  afterEach(() => {
    cleanup();
    sessionStorage.clear();
    window.location.hash = '';
  });
}
