/** The state cipher on Web Crypto: Workers, and any runtime without `node:crypto` (see `cipher.ts`). */
import { utf8Encode } from "../internal/basics";
import type { StateCipher } from "./cipher";

export const stateCipher: StateCipher = {
  async hkdf(secret, salt, info, length) {
    const material = await crypto.subtle.importKey("raw", secret, "HKDF", false, ["deriveBits"]);
    const params = { name: "HKDF", hash: "SHA-256", salt, info: utf8Encode(info) };
    return new Uint8Array(await crypto.subtle.deriveBits(params, material, length * 8));
  },
  async aesGcmKey(raw) {
    const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    return {
      seal: async (iv, additionalData, plaintext) =>
        new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData }, key, plaintext)),
      open: async (iv, additionalData, sealed) =>
        new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv, additionalData }, key, sealed)),
    };
  },
};
