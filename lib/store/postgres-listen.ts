/**
 * Appends announced by PostgreSQL (`NOTIFY` on `APPENDS_CHANNEL`, sent by every append):
 * one connection of its own, outside the pool, LISTENs once someone watches. Lost (the
 * database restarted, a network cut), it is opened again after a pause; meanwhile the watchers
 * poll on, more slowly.
 */
import pg from "pg";
import { APPENDS_CHANNEL } from "./postgres-queries";

/** How long a lost LISTEN connection waits before it is opened again. */
const LISTEN_RETRY_MS = 2000;

export interface AppendWatcher {
  /** Calls `listener` with a transcript id on each append to it; returns the unsubscribe. */
  watch(listener: (transcriptId: string) => void): () => void;
  /** Closes the LISTEN connection, if one was opened. */
  end(): Promise<void>;
}

export function appendWatcher(options: {
  connectionString: string;
  /** The connection string without its password, for messages. */
  where: string;
  /** Settles once the store is migrated; rejects once it is closed. */
  usable: () => Promise<void>;
  closed: () => boolean;
}): AppendWatcher {
  const appendListeners = new Set<(transcriptId: string) => void>();
  let listening: Promise<pg.Client | null> | undefined;
  const relisten = (client: pg.Client | null) => {
    if (options.closed()) return;
    listening = undefined;
    client?.end().catch(() => undefined);
    setTimeout(() => {
      if (!options.closed() && appendListeners.size > 0) listen();
    }, LISTEN_RETRY_MS).unref();
  };
  function listen(): void {
    listening ??= (async () => {
      await options.usable();
      const client = new pg.Client({
        connectionString: options.connectionString,
        application_name: "wirescope-listen",
      });
      client.on("notification", (message) => {
        if (message.channel !== APPENDS_CHANNEL || message.payload === undefined) return;
        for (const listener of appendListeners) listener(message.payload);
      });
      let lost = false;
      const lose = (reason: string) => {
        if (lost || options.closed()) return;
        lost = true;
        console.error(`wirescope: the PostgreSQL listener on ${options.where} was lost: ${reason}`);
        relisten(client);
      };
      client.on("error", (error) => lose(error.message));
      client.on("end", () => lose("the connection ended"));
      try {
        await client.connect();
        await client.query(`LISTEN ${APPENDS_CHANNEL}`);
      } catch (error) {
        lost = true;
        throw error;
      }
      return client;
    })().catch((error: unknown) => {
      console.error(
        `wirescope: could not LISTEN on ${options.where}; followers poll:`,
        String(error),
      );
      relisten(null);
      return null;
    });
  }

  return {
    watch(listener) {
      appendListeners.add(listener);
      listen();
      return () => {
        appendListeners.delete(listener);
      };
    },
    async end() {
      await listening?.then((client) => client?.end()).catch(() => undefined);
    },
  };
}
