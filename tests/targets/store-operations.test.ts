/**
 * What each kind of request costs the shared store, counted on a real Redis with MONITOR (every
 * command the instance sends, with its key): the figures behind "Scaling out" in
 * server/storage/README.md. Atomic operations (keys under `mcp:atomic:`) are what a store's atomic port
 * carries; the rest is general storage. Each count is asserted, so the
 * table cannot silently go stale when a request starts making more round trips.
 */
import Redis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askToIncrement, ELICITATION, retryIncrement, uniqueKey } from "../helpers/flows";
import { openListen, post } from "../helpers/rpc";
import { needs } from "../helpers/programs.mjs";
import { hasFeature } from "../helpers/project.mjs";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { createTask, taskRequest, WITH_TASKS } from "../helpers/tasks";
import { resourceChannel, startRedis } from "./redis.mjs";

type Counts = Record<string, number>;

describe("store operations per request, on Redis", needs("redis-server"), () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let server: RunningServer;
  let monitor: Awaited<ReturnType<Redis["monitor"]>>;
  let probe: Redis;
  const seen: string[][] = [];
  const sum = () => post(server.url, "tools/call", { name: "structured_sum", arguments: { a: 1, b: 2 } });
  const table: Record<string, Counts> = {};

  beforeAll(async () => {
    redis = await startRedis();
    server = await startServer({ env: { REDIS_URL: redis.url, NITRO_MCP_RATE_LIMIT: "1000/1h" } });
    probe = new Redis(redis.url);
    // MONITOR starts once no other client's command is on its way: ioredis fails ("Command queue state error") on a monitor
    // line that arrives with MONITOR's own OK, as the probe's ready check (INFO) and the server's (on its first command) did.
    await probe.ping();
    await sum(); // the server's first command connects it (and checks the connection with INFO)
    monitor = await probe.monitor();
    // Commands a Lua script runs inside Redis are reported too (source "lua"): not round trips, left out.
    monitor.on("monitor", (_time: string, args: string[], source: string) => source !== "lua" && seen.push(args));
  }, 60_000);
  afterAll(async () => {
    console.log(
      `store operations per request (Redis commands: atomic keys, other keys)\n${JSON.stringify(table, null, 1)}`,
    );
    monitor?.disconnect();
    probe?.disconnect();
    await server?.stop();
    await redis?.stop();
  });

  /** The commands the server sent while `action` ran: by name, `atomic` or `general` by key. */
  async function count(action: () => Promise<unknown>): Promise<Counts> {
    const start = `marker:${crypto.randomUUID()}`;
    const end = `marker:${crypto.randomUUID()}`;
    await probe.get(start);
    await expect.poll(() => seen.some((args) => args[1] === start)).toBe(true);
    await action();
    await probe.get(end);
    await expect.poll(() => seen.some((args) => args[1] === end)).toBe(true);
    const window = seen.slice(
      seen.findIndex((args) => args[1] === start) + 1,
      seen.findIndex((args) => args[1] === end),
    );
    const counts: Counts = {};
    for (const [command, ...rest] of window) {
      // EVAL's key is its third word (after the script and the key count).
      const key = command!.toLowerCase() === "eval" ? rest[2] : rest[0];
      const kind =
        command!.toLowerCase() === "eval"
          ? rest[0]!.includes('"TIME"')
            ? "eval(consume)"
            : "eval(compareAndSet)"
          : command!.toLowerCase();
      const name = `${kind} ${key?.startsWith("mcp:atomic:") ? "atomic" : "general"}`;
      counts[name] = (counts[name] ?? 0) + 1;
    }
    return counts;
  }

  it("a plain call: one EVAL, the global rate limit", async () => {
    table["plain call, rate-limited (global limit)"] = await count(sum);
    expect(table["plain call, rate-limited (global limit)"]).toEqual({ "eval(consume) atomic": 1 });
  });

  it("a call of a definition with its own limit: two EVALs", async () => {
    table["call with a definition limit too"] = await count(() =>
      post(server.url, "tools/call", { name: "limited_echo", arguments: { text: "x" } }),
    );
    expect(table["call with a definition limit too"]).toEqual({ "eval(consume) atomic": 2 });
  });

  it("a multi-round (MRTR) round: only the rate limit (the state travels with the client)", async () => {
    const first = await post(
      server.url,
      "tools/call",
      { name: "three_questions", arguments: {} },
      { capabilities: ELICITATION },
    );
    const round = () =>
      post(
        server.url,
        "tools/call",
        {
          name: "three_questions",
          arguments: {},
          requestState: first.body.result.requestState,
          inputResponses: { word: { action: "accept", content: { word: "w" } } },
        },
        { capabilities: ELICITATION },
      );
    table["MRTR round"] = await count(round);
    expect(table["MRTR round"]).toEqual({ "eval(consume) atomic": 1 });
  });

  it("a single-use claim: one SET NX on top of the tool's own work", async () => {
    const key = uniqueKey();
    const state = await askToIncrement(server.url, key);
    table["single-use round (confirm_increment: claim + the tool's counter GET/SET)"] = await count(() =>
      retryIncrement(server.url, key, state),
    );
    expect(table["single-use round (confirm_increment: claim + the tool's counter GET/SET)"]).toEqual({
      "eval(consume) atomic": 1,
      "set atomic": 1,
      "get general": 1,
      "set general": 1,
    });
  });

  it.runIf(hasFeature("tasks"))("a task: creation and its run, a poll, a subscription", async () => {
    let taskId = "";
    const status = async () => (await taskRequest(server.url, "tasks/get", { taskId })).body.result.status;
    let polls = 0;
    const created = await count(async () => {
      taskId = (await createTask(server.url, "counted_job", { key: uniqueKey(), steps: 1, delay_ms: 0 })).taskId;
      do {
        polls++;
      } while ((await status()) !== "completed");
    });
    table["task poll (tasks/get)"] = await count(status);
    // The polls made while waiting are each a poll like the one above: taken out, what is left is the task's own work.
    table["task creation and run (counted_job, 1 step)"] = Object.fromEntries(
      Object.entries(created)
        .map(([name, n]) => [name, n - polls * (table["task poll (tasks/get)"]![name] ?? 0)])
        .filter(([, n]) => n !== 0),
    );
    table["subscription (subscriptions/listen, one ended task)"] = await count(() =>
      post(server.url, "subscriptions/listen", { notifications: { taskIds: [taskId] } }, { capabilities: WITH_TASKS }),
    );
    expect(table["task poll (tasks/get)"]).toEqual({ "eval(consume) atomic": 1, "get atomic": 1 });
    // The tool's own counter is the general GET and SET.
    expect(table["task creation and run (counted_job, 1 step)"]).toEqual({
      "eval(consume) atomic": 1,
      "set atomic": 2,
      "get atomic": 3,
      "eval(compareAndSet) atomic": 2,
      "get general": 1,
      "set general": 1,
    });
    expect(table["subscription (subscriptions/listen, one ended task)"]).toEqual({
      "eval(consume) atomic": 1,
      "get atomic": 2,
    });
  });

  it.runIf(hasFeature("message-bus"))(
    "resource updates: SUBSCRIBE and UNSUBSCRIBE around a listen stream, one PUBLISH per change",
    async () => {
      const uri = "fixture://items/1";
      const channel = await resourceChannel(uri);
      const listeners = async () => Number(((await probe.pubsub("NUMSUB", channel)) as [string, number])[1]);
      const listenAndLeave = async () => {
        const { stream } = await openListen(fetch, server.url, { resourceSubscriptions: [uri] });
        await stream.close();
        await expect.poll(listeners).toBe(0);
      };
      await listenAndLeave(); // the first one opens the bus's own connection
      // The test's own PUBSUB NUMSUB (waiting for the UNSUBSCRIBE) is not the server's.
      const { "pubsub general": _ours, ...listened } = await count(listenAndLeave);
      table["resource subscription (subscriptions/listen, opened then left)"] = listened;
      table["resource change (one resourceChanged)"] = await count(() =>
        post(server.url, "tools/call", { name: "change_resource", arguments: { uri } }),
      );
      expect(table["resource subscription (subscriptions/listen, opened then left)"]).toEqual({
        "eval(consume) atomic": 1,
        "subscribe general": 1,
        "unsubscribe general": 1,
      });
      expect(table["resource change (one resourceChanged)"]).toEqual({
        "eval(consume) atomic": 1,
        "publish general": 1,
      });
    },
  );
});
