/**
 * A real Redis for the multi-instance tests: the redis-server on PATH (Debian's package; see
 * programs.mjs), started on 127.0.0.1 and a free port, with no persistence.
 */
import Redis from "ioredis";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { needs, programPath } from "../helpers/programs.mjs";
import { freePort, startServer } from "../helpers/server.mjs";

/** The options of a test that runs on a real Redis: skipped where redis-server is not installed, saying how to install it. */
export const NEEDS_REDIS = needs("redis-server");

/**
 * A redis-server on a free port. With `persist`, its data lives in an append-only file in a
 * folder of its own, so `stop()` then `start()` (same port) brings the data back, as a restarted
 * production Redis would.
 * @param {{ persist?: boolean }} [options]
 * @returns {Promise<{ url: string, stop: () => Promise<void>, start: () => Promise<void> }>}
 */
export async function startRedis(options = {}) {
  const binary = programPath("redis-server");
  const port = await freePort();
  const persistence = options.persist
    ? ["--appendonly", "yes", "--appendfsync", "always", "--dir", mkdtempSync(join(tmpdir(), "redis-"))]
    : ["--appendonly", "no"];
  let child;
  const start = async () => {
    child = spawn(binary, ["--bind", "127.0.0.1", "--port", String(port), "--save", "", ...persistence], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    await new Promise((resolve, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 15_000);
      child.stdout.on("data", (chunk) => {
        output += chunk;
        if (/Ready to accept connections/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
    });
  };
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) resolve();
      else {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }
    });
  await start();
  return { url: `redis://127.0.0.1:${port}`, stop, start };
}

/**
 * Two Node instances of the fixture build sharing one fresh Redis (and one secret): several
 * instances behind a load balancer. `env` is added to both.
 * @param {Record<string, string>} [env]
 * @returns {Promise<{ redis: Awaited<ReturnType<typeof startRedis>>, a: import("../helpers/server.mjs").RunningServer, b: import("../helpers/server.mjs").RunningServer, stop: () => Promise<void> }>}
 */
export async function startInstancesOnRedis(env = {}) {
  const redis = await startRedis();
  const [a, b] = await Promise.all([
    startServer({ env: { ...env, REDIS_URL: redis.url } }),
    startServer({ env: { ...env, REDIS_URL: redis.url } }),
  ]);
  return {
    redis,
    a,
    b,
    stop: async () => {
      await Promise.all([a.stop(), b.stop()]);
      await redis.stop();
    },
  };
}

/**
 * The Redis pub/sub channel of a resource's updates, as the message bus feature and the Redis bus name it.
 * @param {string} uri
 * @returns {Promise<string>}
 */
export async function resourceChannel(uri) {
  const digest = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(uri))).toString(
    "base64url",
  );
  return `mcp:bus:resource-${digest}`;
}

/**
 * `startInstancesOnRedis`, and how many connections the Redis pub/sub has on a resource's update channel (to see a stream let go of it).
 * @param {Record<string, string>} [env]
 */
export async function startInstancesCountingSubscribers(env = {}) {
  const instances = await startInstancesOnRedis(env);
  const client = new Redis(instances.redis.url);
  return {
    ...instances,
    /** @param {string} uri */
    subscribersOf: async (uri) =>
      Number(/** @type {[string, number]} */ (await client.pubsub("NUMSUB", await resourceChannel(uri)))[1]),
    stop: async () => {
      client.disconnect();
      await instances.stop();
    },
  };
}
