/**
 * The state cipher on `node:crypto`, synchronous: Node and Vercel's Node runtime (see `cipher.ts`).
 * Its output is byte for byte that of `cipher.web.ts` (`tests/unit/state-codec.test.ts` checks both ways).
 */
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync } from "node:crypto";
import type { StateCipher } from "./cipher";

const TAG_BYTES = 16;

export const stateCipher: StateCipher = {
  name: "node:crypto",
  hkdf: (secret, salt, info, length) => new Uint8Array(hkdfSync("sha256", secret, salt, info, length)),
  aesGcmKey(raw) {
    const key = createSecretKey(raw);
    return {
      seal(iv, additionalData, plaintext) {
        const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES }).setAAD(additionalData);
        return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
      },
      open(iv, additionalData, sealed) {
        if (sealed.length < TAG_BYTES) throw new Error("too short");
        // A fixed tag length: a shortened tag would otherwise be accepted.
        const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES }).setAAD(additionalData);
        decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
        return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
      },
    };
  },
};
