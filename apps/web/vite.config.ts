import { defineConfig, type Plugin } from 'vite';

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

// The Fastify server owns these prefixes; in dev and preview the SPA forwards them so the browser sees one origin.
const serverUrl = 'http://localhost:3000';
const proxy = {
  '/api': serverUrl,
  '/iiif': serverUrl,
  '/oidc': serverUrl,
};

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
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          // The PDF preview's libraries (≈1 MB) stay in its lazy route chunk instead of the shared vendor chunk.
          if (/node_modules[\\/](react-pdf|pdfjs-dist)[\\/]/.test(id)) return 'pdf';
          // Likewise OpenSeadragon (≈500 kB) loads only with the image viewer's route.
          if (/node_modules[\\/]openseadragon[\\/]/.test(id)) return 'openseadragon';
          if (/[\\/]@mantine[\\/]/.test(id)) return 'mantine';
          // Anchored at node_modules: `@floating-ui/react` is Mantine's, not React's.
          if (/node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/.test(id)) return 'react';
          return 'vendor';
        },
      },
    },
  },
});
