/**
 * `#mcp-platform` for the in-process test server: Node's, but for its log. A test server's lines go to that server's own
 * log (`logs()` in `in-process-server.ts`), each as it is written: on the process's stdout, a line of one server would be
 * read as another's (every server of a test worker shares it, and a batch leaves up to 50 ms after its line).
 * A module graph loaded outside a server (a unit test of the log itself) gets Node's writers.
 */
import { openLineWriters as nodeLineWriters } from "../../server/mcp/platform/node";
import { serverLog } from "./in-process-runtime";

export * from "../../server/mcp/platform/node";

export const openLineWriters: typeof nodeLineWriters = (warningLine) => {
  const lines = serverLog;
  if (!lines) return nodeLineWriters(warningLine);
  const write = (line: string) => void lines.push(line);
  return { debug: write, info: write, warn: write, error: write };
};
