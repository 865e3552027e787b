/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Maven passes CONSOLE_OUT_DIR (${project.build.directory}/classes/META-INF/tributary-console);
// the api module serves that folder of the jar at `/`.
const outDir = process.env.CONSOLE_OUT_DIR ?? 'target/classes/META-INF/tributary-console';

export default defineConfig({
  // Relative asset URLs: the console works under any path prefix, and routing is hash-based,
  // so the server needs no SPA fallback.
  base: './',
  plugins: [react()],
  server: {
    // `npm run dev` against a running server
    proxy: { '/v1': process.env.TRIBUTARY_API ?? 'http://localhost:8080' },
  },
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
  },
});
