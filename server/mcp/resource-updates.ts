/**
 * Saying that a resource changed (the `resourceChanged` helper): a message on the bus, on the resource's own
 * channel, which every instance holding a stream subscribed to it hears (see server/features/message-bus).
 * Kept apart from the registry: definitions import this, and the registry imports the definitions.
 */
import { EVERY_PRINCIPAL, useMessageBus } from "./bus";
import { logWarning } from "./log";
import { digestKeySegment } from "./storage-keys";

/** The bus channel of a resource's updates. */
export const resourceChannel = async (uri: string): Promise<string> => `resource-${await digestKeySegment(uri)}`;

/**
 * Tells every stream subscribed to `uri` that it changed: for everyone, or only for `principal` (a resource per caller).
 * Never throws: the change itself is done, and an update that cannot be sent is lost (and logged), as delivery is at most once.
 */
export async function publishResourceChange(uri: string, principal: string = EVERY_PRINCIPAL): Promise<void> {
  try {
    await useMessageBus()?.publish(await resourceChannel(uri), principal, { uri });
  } catch (error) {
    logWarning(`resource update not sent (${error instanceof Error ? error.message : String(error)})`);
  }
}
