/** `node:crypto`'s state cipher (Node, Vercel): byte for byte `cipher.web.ts`'s, as state-codec.test.ts checks. */
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync } from "node:crypto";
import type { StateCipher } from "./cipher";

const TAG_BYTES = 16;

export const stateCipher: StateCipher = {
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
