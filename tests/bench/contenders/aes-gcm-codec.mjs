/**
 * An AES-256-GCM requestState codec for tmcp (`{ encode, decode }`): the state is encrypted and
 * expires, as the template's is. `g1.<base64url(iv ‖ ciphertext ‖ tag)>`, key = SHA-256 of the secret.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

export function createAesGcmCodec(secret, ttlSeconds) {
  const key = createHash("sha256").update(`tmcp-bench requestState\0${secret}`).digest();
  return {
    encode(state) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const plain = JSON.stringify({ state, exp: Math.floor(Date.now() / 1000) + ttlSeconds });
      return `g1.${Buffer.concat([iv, cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64url")}`;
    },
    decode(token) {
      if (typeof token !== "string" || !token.startsWith("g1.")) throw new Error("malformed");
      const bytes = Buffer.from(token.slice(3), "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12), { authTagLength: 16 });
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      const { state, exp } = JSON.parse(
        Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString("utf8"),
      );
      if (Math.floor(Date.now() / 1000) > exp) throw new Error("expired");
      return state;
    },
  };
}
