import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import type { Plugin } from 'vite';

/**
 * Storefront pages arrive rendered by the server, so on a slow connection the stylesheet and the
 * page's images matter first and the app's code (which only makes the page interactive) after
 * them: the stylesheet is asked for first, the scripts and their preloads at low priority.
 */
function cssFirstScriptsLater(): Plugin {
  return {
    name: 'css-first-scripts-later',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const css = html.match(/\s*<link rel="stylesheet"[^>]*>/g) ?? [];
        let out = html;
        for (const link of css) out = out.replace(link, '');
        out = out.replace('<!--app-head-->', `<!--app-head-->${css.join('')}`);
        return out
          .replace(/<script type="module"/g, '<script type="module" fetchpriority="low"')
          .replace(/<link rel="modulepreload"/g, '<link rel="modulepreload" fetchpriority="low"');
      },
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/client',
  publicDir: '../../public',
  plugins: [react(), tailwindcss(), cssFirstScriptsLater()],
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // The server-rendering bundle needs no copy of the public files.
    copyPublicDir: !isSsrBuild,
    sourcemap: false,
    target: 'es2022',
    // The storefront's first load stays small; admin and account code live in lazy chunks.
    chunkSizeWarningLimit: 400,
    // zod in one chunk of its own, so loading it (lib/load-zod.ts) evaluates all of it at once,
    // apart from the schemas and pages built on it. React in one chunk too: react-hook-form (in
    // lazy chunks) imports react without its JSX runtime, which would otherwise split the
    // first load's copy in two (0.2 KB more gzipped).
    rolldownOptions: isSsrBuild
      ? {}
      : {
          output: {
            codeSplitting: {
              groups: [
                { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
                { name: 'react', test: /node_modules[\\/]react[\\/]/ },
              ],
            },
          },
        },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/uploads': 'http://localhost:3000' },
  },
}));
