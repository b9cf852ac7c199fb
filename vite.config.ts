import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import type { Plugin } from 'vite';
import type { ChunkingContext } from 'rolldown';
import { fileURLToPath } from 'node:url';

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

/**
 * main.tsx imports the app's code in stages (import()), so that evaluating it is several short
 * tasks instead of one long one; this names those files in the page as modulepreloads, as the
 * statically imported ones are, so they still download with the page instead of after main.js.
 */
function preloadEntryStages(): Plugin {
  return {
    name: 'preload-entry-stages',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const { bundle, chunk } = ctx;
        if (!bundle || !chunk) return html;
        const files = new Set<string>();
        const add = (file: string) => {
          const c = bundle[file];
          if (files.has(file) || !c || c.type !== 'chunk') return;
          files.add(file);
          for (const dep of c.imports) add(dep);
        };
        for (const file of chunk.dynamicImports) add(file);
        for (const file of chunk.imports) files.delete(file);
        const links = [...files]
          .filter((file) => !html.includes(`/${file}"`))
          .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
          .join('\n    ');
        return html.replace(/\s*<\/head>/, `\n    ${links}\n  </head>`);
      },
    },
  };
}

/** start.tsx: the app's second stage (main.tsx), whose static imports every page loads first. */
const START = fileURLToPath(new URL('./src/client/start.tsx', import.meta.url));
/** React DOM is the first stage, in a chunk of its own (main.tsx). */
const FIRST_STAGE = /node_modules[\\/](react-dom|scheduler)[\\/]/;
/** start.tsx's static imports, found on the chunking pass's first call; emptied as each build starts (`vite build --watch`). */
let firstLoad: Set<string> | undefined;
const forgetFirstLoad: Plugin = {
  name: 'forget-first-load',
  buildStart() {
    firstLoad = undefined;
  },
};

/**
 * Every module start.tsx imports statically, React DOM aside, goes in one chunk ("start"): a page
 * loads them all before anything else anyway, and as some 25 small chunks (split by which lazy
 * pages share them) they were as many requests competing with the page's stylesheet and picture
 * on a slow phone connection. Lazy pages import what they share with the first load from it.
 */
function firstLoadChunk(id: string, ctx: ChunkingContext): string | null {
  if (!firstLoad) {
    firstLoad = new Set();
    const walk = (m: string) => {
      if (firstLoad!.has(m) || FIRST_STAGE.test(m)) return;
      firstLoad!.add(m);
      for (const dep of ctx.getModuleInfo(m)?.importedIds ?? []) walk(dep);
    };
    walk(START);
  }
  return firstLoad.has(id) ? 'start' : null;
}

export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/client',
  publicDir: '../../public',
  plugins: [react(), tailwindcss(), preloadEntryStages(), cssFirstScriptsLater(), forgetFirstLoad],
  // In the browser, zod is imported through lib/zod-jitless.ts, which turns its eval probe off
  // before any schema is built (a page that built one before importing lib/zod-config.ts broke the CSP).
  resolve: isSsrBuild
    ? {}
    : { alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/client/lib/zod-jitless.ts', import.meta.url)) }] },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    // The server-rendering bundle needs no copy of the public files.
    copyPublicDir: !isSsrBuild,
    sourcemap: false,
    target: 'es2022',
    // The storefront's first load stays small; admin and account code live in lazy chunks.
    chunkSizeWarningLimit: 400,
    modulePreload: {
      // Every browser the shop supports preloads modules itself (Chrome 66, Safari 17, Firefox 115).
      polyfill: false,
      // The entry's own import()s (main.tsx's stages) are preloaded by the page (preloadEntryStages);
      // listing their files again in the entry would only make the first load bigger. The entry is
      // the one chunk named index-… (after index.html); were a lazy chunk ever named so too, its
      // imports would still load, only without being preloaded.
      resolveDependencies: (_file, deps, { hostId, hostType }) => (hostType === 'js' && /(^|\/)index-[^/]*\.js$/.test(hostId) ? [] : deps),
    },
    // zod in one chunk of its own, so loading it (lib/load-zod.ts) evaluates all of it at once,
    // apart from the schemas and pages built on it. React in one chunk too: react-hook-form (in
    // lazy chunks) imports react without its JSX runtime, which would otherwise split the
    // first load's copy in two (0.2 KB more gzipped). React DOM (main.tsx's first stage) and the
    // rest of the first load (its second) in one chunk each.
    rolldownOptions: isSsrBuild
      ? {}
      : {
          output: {
            codeSplitting: {
              groups: [
                { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
                { name: 'react', test: /node_modules[\\/]react[\\/]/ },
                { name: 'react-dom', test: FIRST_STAGE },
                { name: firstLoadChunk, debugName: 'start' },
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
