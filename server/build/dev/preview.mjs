/**
 * What the local previews (`npm run preview:vercel` and the like) share: the state secret they run
 * with, and the address they listen on, refused in one line when it is taken.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";

/**
 * The secret that seals `requestState` in a preview: the caller's `NITRO_MCP_STATE_SECRET`, or else one made for this run
 * (32 random bytes), kept in memory only, so that tools, prompts and resources that ask work as in a deployment. Neither
 * is ever printed; a made one is announced in one line.
 * @returns {string}
 */
export function previewSecret() {
  const own = process.env.NITRO_MCP_STATE_SECRET;
  if (own) return own;
  console.log(
    "[preview] previewing with a secret made for this run: asking works; set NITRO_MCP_STATE_SECRET to use your own",
  );
  return randomBytes(32).toString("base64url");
}

/** HOST and PORT as `npm start` reads them, with the preview's default port. */
export function previewAddress(defaultPort) {
  return { host: process.env.HOST || "127.0.0.1", port: Number(process.env.PORT || defaultPort) };
}

/**
 * Ends the preview with one line and exit code 1 when it cannot listen on `host:port` (taken, say, by `npm run dev` or
 * another preview); the message names the script and how to pick another port.
 * @param {string} script e.g. "preview:vercel"
 * @param {{ host: string, port: number }} address
 * @param {NodeJS.ErrnoException} error what `listen` failed with
 */
export function refuseAddress(script, { host, port }, error) {
  const why =
    error.code === "EADDRINUSE"
      ? "is already in use (another server, `npm run dev` or a preview?)"
      : `cannot be listened on (${error.code ?? error.message})`;
  console.error(`[preview] ${host}:${port} ${why}: stop it, or run on another port: PORT=<port> npm run ${script}`);
  process.exit(1);
}

/**
 * Checks that `host:port` can be listened on before a preview starts, and ends it with {@link refuseAddress} if not.
 * @param {string} script
 * @param {{ host: string, port: number }} address
 */
export async function checkAddress(script, address) {
  const error = await new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", resolve);
    probe.listen(address.port, address.host, () => probe.close(() => resolve(undefined)));
  });
  if (error) refuseAddress(script, address, error);
}
