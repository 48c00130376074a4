/**
 * Serves a Web `fetch` handler on node:http (127.0.0.1, `PORT` or a free port) through
 * @remix-run/node-fetch-server, the lightest correct bridge: it streams the request body in,
 * aborts `request.signal` on disconnect and streams the response out. Prints the line
 * tests/helpers/server.mjs waits for.
 */
import { createServer } from "node:http";
import { createRequestListener } from "@remix-run/node-fetch-server";

/** @param {(request: Request) => Response | Promise<Response>} handler */
export function listen(handler) {
  const server = createServer(createRequestListener(handler)).listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
    console.log(`Listening on http://127.0.0.1:${server.address().port}`);
  });
}
