/**
 * A local stand-in for Upstash's REST API on top of a real Redis, so the Upstash store
 * (`UPSTASH_REDIS_REST_URL`/`_TOKEN`) runs its real client and its real Lua against real Redis
 * semantics, without the network: `POST /` with one command as a JSON array answers `{ result }`,
 * `POST /pipeline` with a list of commands answers a list of them (what @upstash/redis sends when it
 * batches), and with `Upstash-Encoding: base64` every string in a result is base64, as Upstash does.
 * Not Upstash itself: its limits, latency and billing are not modelled.
 */
import { createServer } from "node:http";
import Redis from "ioredis";
import { startServer, startVercelOutput } from "../helpers/server.mjs";
import { startRedis } from "./redis.mjs";

const encode = (value) =>
  typeof value === "string" ? Buffer.from(value).toString("base64") : Array.isArray(value) ? value.map(encode) : value;

/**
 * @param {string} redisUrl
 * @returns {Promise<{ url: string, token: string, commands: () => string[], stop: () => Promise<void> }>}
 */
export async function startUpstashStandIn(redisUrl) {
  const token = `token-${crypto.randomUUID()}`;
  const redis = new Redis(redisUrl);
  const seen = [];
  const run = async ([command, ...args], base64) => {
    seen.push(String(command).toLowerCase());
    try {
      const result = await redis.call(String(command), ...args.map(String));
      return { result: base64 ? encode(result) : result };
    } catch (error) {
      return { error: error.message };
    }
  };
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    if (request.headers.authorization !== `Bearer ${token}`) {
      response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "Unauthorized" }));
      return;
    }
    const base64 = request.headers["upstash-encoding"] === "base64";
    const commands = JSON.parse(body);
    const answer =
      request.url === "/pipeline"
        ? await Promise.all(commands.map((command) => run(command, base64)))
        : await run(commands, base64);
    const failed = !Array.isArray(answer) && answer.error;
    response.writeHead(failed ? 400 : 200, { "content-type": "application/json" }).end(JSON.stringify(answer));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    token,
    /** The commands received, in order, lower case. */
    commands: () => [...seen],
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      redis.disconnect();
    },
  };
}

/**
 * Two instances of the fixtures' Node build (or, with "vercel", of its Vercel function output) on the Upstash driver, through
 * the stand-in of its REST API on a fresh Redis.
 * @param {"node" | "vercel"} [output]
 */
export async function startInstancesOnUpstash(output = "node") {
  const start = (env) => (output === "vercel" ? startVercelOutput({ env }) : startServer({ env }));
  const redis = await startRedis();
  const upstash = await startUpstashStandIn(redis.url);
  const env = { UPSTASH_REDIS_REST_URL: upstash.url, UPSTASH_REDIS_REST_TOKEN: upstash.token };
  const [a, b] = await Promise.all([start(env), start(env)]);
  return {
    a,
    b,
    stop: async () => {
      await Promise.all([a.stop(), b.stop()]);
      await upstash.stop();
      await redis.stop();
    },
  };
}
