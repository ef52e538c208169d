// Vite for the dashboard. `freshet` is this checkout (file:../..), which npm
// links rather than copies: React must then be this app's copy only (dedupe),
// and the dev server may read the linked package's files (fs.allow).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  base: './',  // the build works from any folder it is served from
  resolve: { dedupe: ['react', 'react-dom'] },
  server: { fs: { allow: ['../..'] } },
  build: {
    // Freshet's JS in a chunk of its own, so its size can be measured (scripts/bundle-size.mjs).
    rollupOptions: {
      output: {
        manualChunks: (id) => (/[\\/]wasm-bindings[\\/]js[\\/]/.test(id) ? 'freshet' : undefined),
      },
    },
  },
});
