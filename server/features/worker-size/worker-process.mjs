/**
 * The Worker's `process`: workerd's own, with the Worker's bindings (KV, the Durable Object) readable from `process.env`
 * beside its variables, where Nitro's polyfill puts them and the stores look for them. workerd's `process.env` holds
 * strings only, so `env` is an object of its own here.
 */
import process from "#workerd/node:process";
import { env } from "cloudflare:workers";

export default Object.create(process, { env: { value: { ...process.env, ...env }, enumerable: true } });
export * from "#workerd/node:process";
