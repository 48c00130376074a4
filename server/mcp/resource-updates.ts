/**
 * A resource's change (`resourceChanged`) is a message on its own bus channel, heard by every instance with a stream on it.
 * Kept apart from the registry: definitions import this, and the registry imports the definitions.
 */
import { EVERY_PRINCIPAL, useMessageBus } from "./bus";
import { logWarning } from "./log";
import { digestKeySegment } from "./storage-keys";

/** The bus channel of a resource's updates. */
export const resourceChannel = async (uri: string): Promise<string> => `resource-${await digestKeySegment(uri)}`;

/** Never throws: the change itself is done, and an update that cannot be sent is lost (and logged): at most once. */
export async function publishResourceChange(uri: string, principal: string = EVERY_PRINCIPAL): Promise<void> {
  try {
    await useMessageBus()?.publish(await resourceChannel(uri), principal, { uri });
  } catch (error) {
    logWarning(`resource update not sent (${error instanceof Error ? error.message : String(error)})`);
  }
}
