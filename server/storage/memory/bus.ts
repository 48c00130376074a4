/** The memory store's message transport: this process only, a message handed straight to the channel's listener. */
import type { BusTransport } from "../../mcp/kit";

export default function memoryBus(): BusTransport {
  const listeners = new Map<string, (message: string) => void>();
  return {
    publish: async (channel, message) => listeners.get(channel)?.(message),
    listen: async (channel, deliver) => {
      listeners.set(channel, deliver);
      return () => void (listeners.get(channel) === deliver && listeners.delete(channel));
    },
  };
}
