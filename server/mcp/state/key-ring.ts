/**
 * The configured key ring, built once per process (or per Worker isolate).
 *
 * - `NITRO_MCP_STATE_SECRET` set: it seals and opens; `..._PREVIOUS` entries only open.
 * - No secret under `nitropack dev`: a random per-process key, with a loud warning.
 * - No secret in a production build: sealing is disabled. Tools that ask for input get a
 *   clear error instead of a state that no other instance could open.
 * - A secret shorter than 32 bytes is a configuration error that stops the server.
 */
import { useMcpConfig } from "../config";
import { createStateKeyRing, type StateKeyRing } from "./keys";

let ring: Promise<StateKeyRing> | undefined;

export function useStateKeyRing(): Promise<StateKeyRing> {
  ring ??= (() => {
    const config = useMcpConfig();
    const allowEphemeral = !config.stateSecret && !!import.meta.dev;
    if (allowEphemeral) {
      console.warn(
        "[mcp] ⚠ NITRO_MCP_STATE_SECRET is not set: requestState is sealed with a random key that lives only in this " +
          "dev process. Set a secret of at least 32 bytes before running more than one instance or deploying.",
      );
    } else if (!config.stateSecret) {
      console.warn(
        "[mcp] ⚠ NITRO_MCP_STATE_SECRET is not set: tools, prompts and resources that ask for input are disabled.",
      );
    }
    return createStateKeyRing({ secret: config.stateSecret, previous: config.stateSecretPrevious, allowEphemeral });
  })();
  return ring;
}
