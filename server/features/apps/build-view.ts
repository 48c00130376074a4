/**
 * Build time: one UI folder (`ui/<name>/index.html` and what it loads) becomes one self-contained HTML document, with Vite.
 * Hosts render it in a sandboxed iframe with an opaque origin, where `'self'` matches nothing: every script and style is
 * inlined, so the document needs no URL of its own and no file system where it is served (a serverless bundle may have none).
 */
import type { Plugin } from "vite";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Replaces the entry's `<script src>` and the stylesheets' `<link>` with their contents, leaving `index.html` alone. */
function inlineIntoHtml(): Plugin {
  return {
    name: "mcp-apps-inline",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const page = bundle["index.html"];
      if (page?.type !== "asset") return;
      let html = String(page.source);
      for (const [fileName, item] of Object.entries(bundle)) {
        if (item.type === "chunk" && item.isEntry) {
          const tag = new RegExp(`<script type="module"[^>]*src="[^"]*${escapeRegExp(fileName)}"[^>]*></script>`);
          // A "</script" inside the code would end the element early.
          const code = item.code.replace(/<\/script/gi, "<\\/script");
          html = html.replace(tag, () => `<script type="module">${code}</script>`);
        } else if (item.type === "asset" && fileName.endsWith(".css")) {
          const tag = new RegExp(`<link rel="stylesheet"[^>]*href="[^"]*${escapeRegExp(fileName)}"[^>]*>`);
          html = html.replace(tag, () => `<style>${String(item.source).replace(/<\/style/gi, "<\\/style")}</style>`);
        } else continue;
        delete bundle[fileName];
      }
      page.source = html;
    },
  };
}

/** The folder's `index.html`, built and inlined: the one document its `ui://` resource serves. */
export async function buildView(dir: string): Promise<string> {
  const { build } = await import("vite");
  const built = await build({
    root: dir,
    configFile: false,
    envDir: false,
    logLevel: "warn",
    plugins: [inlineIntoHtml()],
    build: {
      write: false,
      target: "es2022",
      // Vite's default CSS target rewrites light-dark() into media queries, which ignore the host's theme (color-scheme).
      cssTarget: "chrome123",
      modulePreload: false,
      cssCodeSplit: false,
      assetsInlineLimit: Number.MAX_SAFE_INTEGER,
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
  const outputs = (Array.isArray(built) ? built : [built]).flatMap((result) =>
    "output" in result ? result.output : [],
  );
  const page = outputs.find((item) => item.fileName === "index.html");
  if (page?.type !== "asset") throw new Error(`${dir}: the build produced no index.html`);
  const left = outputs.filter((item) => item !== page).map((item) => item.fileName);
  // An asset that was not inlined (a dynamic import, a worker) would be a URL the sandboxed view cannot load.
  if (left.length) throw new Error(`${dir}: the build produced files that cannot be inlined: ${left.join(", ")}`);
  return String(page.source);
}
