/** Which request a `requestState` belongs to: the principal, the method, its target and its arguments. */
import { targetOf } from "../request-target";
import type { RequestBinding } from "./codec";

/** The binding for a request that may carry a `requestState`, or undefined for other methods. */
export function requestBindingOf(
  method: string,
  params: Readonly<Record<string, unknown>>,
  principal: string,
): RequestBinding | undefined {
  const target = targetOf(method, params)?.value;
  if (typeof target !== "string") return undefined;
  return { principal, method, target, arguments: method === "resources/read" ? undefined : params.arguments };
}
