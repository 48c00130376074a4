/**
 * The questions a server asks during a multi round-trip request (elicitation, sampling, roots).
 * The official client runs the rounds itself: for each `input_required` answer it calls the
 * handlers registered here, one per embedded request, then retries with the answers and the
 * sealed `requestState`, round after round. Who answers is an Answerer: the person
 * (interactive-answers.mjs) or the command line (scripted-answers.mjs).
 */
import { basename } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * What this client declares, so servers may ask every kind of question. (Sampling and roots are
 * deprecated in 2026-07-28 but still served, so a tool that asks for them can be tried here.)
 * @type {import("@modelcontextprotocol/client").ClientCapabilities}
 */
export const CLIENT_CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

/**
 * @typedef {import("@modelcontextprotocol/client").ElicitResult} ElicitResult
 * @typedef {import("@modelcontextprotocol/client").CreateMessageResult} CreateMessageResult
 * @typedef {import("@modelcontextprotocol/client").ListRootsResult} ListRootsResult
 *
 * @typedef {object} Answerer
 * @property {(params: import("@modelcontextprotocol/client").ElicitRequestFormParams) => Promise<ElicitResult>} form
 * @property {(params: import("@modelcontextprotocol/client").ElicitRequestURLParams) => Promise<ElicitResult>} url
 * @property {(params: import("@modelcontextprotocol/client").CreateMessageRequestParams) => Promise<CreateMessageResult>} sampling
 * @property {() => Promise<ListRootsResult>} roots
 */

/** The root this client offers: the directory it runs in. */
export function currentDirectoryRoot() {
  return { uri: pathToFileURL(process.cwd()).href, name: basename(process.cwd()) };
}

/**
 * Registers `answerer` for the three kinds of question. The client fulfils the requests of one
 * round concurrently; they are answered one after another here, so two questions never share
 * the terminal at once.
 * @param {import("@modelcontextprotocol/client").Client} client
 * @param {Answerer} answerer
 */
export function registerInputHandlers(client, answerer) {
  let previous = Promise.resolve();
  /**
   * @template T
   * @param {() => Promise<T>} answer
   * @returns {Promise<T>}
   */
  const inTurn = (answer) => {
    const turn = previous.then(answer);
    previous = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  };
  client.setRequestHandler("elicitation/create", (request) =>
    inTurn(() => (request.params.mode === "url" ? answerer.url(request.params) : answerer.form(request.params))),
  );
  client.setRequestHandler("sampling/createMessage", (request) => inTurn(() => answerer.sampling(request.params)));
  client.setRequestHandler("roots/list", () => inTurn(() => answerer.roots()));
}
