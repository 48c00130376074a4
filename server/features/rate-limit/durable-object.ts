/**
 * What the Worker entry adds to the `$DurableObject` class (`server/cloudflare/entry.ts`): on Workers each rate-limit key
 * has an object of its own (`consume.ts`), which counts with its own atomic operations. Nothing interleaves with them:
 * they are synchronous, and the awaits between them are microtasks.
 */
import { consumeWith } from "./consume";
import type { Consumed } from "./gcra";

interface AtomicMethods {
  atomicGet(key: string): string | null;
  atomicSetIfAbsent(key: string, value: string, ttlSeconds: number): boolean;
  atomicCompareAndSet(key: string, expected: string, next: string, ttlSeconds: number): boolean;
}

export default {
  rateLimitConsume(this: AtomicMethods, key: string, limit: number, windowMs: number): Promise<Consumed> {
    const steps = {
      get: async (name: string) => this.atomicGet(name),
      setIfAbsent: async (name: string, value: string, ttlSeconds: number) =>
        this.atomicSetIfAbsent(name, value, ttlSeconds),
      compareAndSet: async (name: string, expected: string, next: string, ttlSeconds: number) =>
        this.atomicCompareAndSet(name, expected, next, ttlSeconds),
    };
    return consumeWith(steps, key, limit, windowMs);
  },
};
