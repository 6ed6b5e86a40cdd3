import { defineConfig, type Plugin, type Rollup } from 'vite';

/**
 * Mantine and TanStack Query mark modules "use client" for React Server Components. In an SPA bundle the directive is
 * meaningless and Rollup warns about each one; blank it out (same length, so source maps stay exact).
 */
const stripUseClient: Plugin = {
  name: 'strip-use-client',
  transform(code, id) {
    if (!id.includes('node_modules')) return undefined;
    // The directive may follow a licence banner: skip leading comments, blank only the directive itself.
    // A block comment ends at its first `*/` ((?:[^*]|\*(?!\/))*): a lazy [\s\S]*? could stretch to any later `*/`,
    // and on a comment-heavy file (OpenSeadragon's 1 MB source) the backtracking never finished.
    const match = /^((?:\s|\/\*(?:[^*]|\*(?!\/))*\*\/|\/\/[^\n]*)*)(['"])use client\2;?/.exec(code);
    if (!match) return undefined;
    const start = match[1]?.length ?? 0;
    const end = match[0].length;
    return { code: code.slice(0, start) + ' '.repeat(end - start) + code.slice(end), map: null };
  },
};

/**
 * Writes `meta.json` (`{ "date": "<ISO build time>" }`) next to index.html. The running app polls it (update checker,
 * spec part 3 §4) and offers a reload when a newer build has been deployed. The dev server answers with its start time.
 */
export function buildMetaPlugin(now: () => Date = () => new Date()): Plugin {
  const body = () => `${JSON.stringify({ date: now().toISOString() })}\n`;
  return {
    name: 'build-meta',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'meta.json', source: body() });
    },
    configureServer(server) {
      const started = body();
      server.middlewares.use('/meta.json', (_request, response) => {
        response.setHeader('Content-Type', 'application/json');
        response.setHeader('Cache-Control', 'no-store');
        response.end(started);
      });
    },
  };
}

/**
 * The modules that the entry reaches through static imports: what every first page load downloads, parses and runs.
 * Libraries reached only through a route's `import()` (the notice editor's tiptap and ProseMirror, tus uploads, CSV
 * encodings, DICOM headers, …) stay out of the shared chunks, so a visitor pays for them only on the route that uses them.
 */
export function staticallyLoaded(moduleIds: Iterable<string>, getModuleInfo: Rollup.GetModuleInfo): Set<string> {
  const loaded = new Set<string>();
  const pending = [...moduleIds].filter((id) => getModuleInfo(id)?.isEntry);
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (loaded.has(id)) continue;
    loaded.add(id);
    pending.push(...(getModuleInfo(id)?.importedIds ?? []));
  }
  return loaded;
}

// The Fastify server owns these prefixes; in dev and preview the SPA forwards them so the browser sees one origin.
const serverUrl = 'http://localhost:3000';
const proxy = {
  '/api': serverUrl,
  '/iiif': serverUrl,
  '/oidc': serverUrl,
};

/** Computed once per build (Rollup hands every manualChunks call of a build the same getModuleInfo), on its first call. */
const initiallyLoaded = new WeakMap<Rollup.GetModuleInfo, Set<string>>();

export default defineConfig({
  // No @vitejs/plugin-react: esbuild's automatic runtime is all the JSX transform we need (no Fast Refresh).
  esbuild: { jsx: 'automatic' },
  plugins: [stripUseClient, buildMetaPlugin()],
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // pdf.js alone is ~630 kB; it loads only with the PDF preview route, so the default 500 kB warning is noise.
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      output: {
        // Libraries change far less often than the app: separate chunks stay cached across deployments.
        manualChunks(id, { getModuleIds, getModuleInfo }) {
          if (!id.includes('node_modules')) return undefined;
          // The PDF preview's libraries (≈1 MB) stay in its lazy route chunk instead of the shared vendor chunk.
          if (/node_modules[\\/](react-pdf|pdfjs-dist)[\\/]/.test(id)) return 'pdf';
          // Likewise OpenSeadragon (≈500 kB) loads only with the image viewer's route.
          if (/node_modules[\\/]openseadragon[\\/]/.test(id)) return 'openseadragon';
          let loaded = initiallyLoaded.get(getModuleInfo);
          if (!loaded) initiallyLoaded.set(getModuleInfo, (loaded = staticallyLoaded(getModuleIds(), getModuleInfo)));
          // Rollup puts a lazy-only library with the route chunks that import it (or a chunk they share).
          if (!loaded.has(id)) return undefined;
          if (/[\\/]@mantine[\\/]/.test(id)) return 'mantine';
          // Anchored at node_modules: `@floating-ui/react` is Mantine's, not React's.
          if (/node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/.test(id)) return 'react';
          return 'vendor';
        },
      },
    },
  },
});
