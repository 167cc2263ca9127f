// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { usePlayground } from "./playground-store";
import { sendMessage } from "./run-client";

/** What the composer does on Enter: the box empties, then the message is sent. */
async function send(message: string): Promise<void> {
  usePlayground.getState().setUi({ draft: "" });
  await sendMessage(message);
}

beforeEach(() => usePlayground.getState().newConversation());
afterEach(() => {
  vi.unstubAllGlobals();
  usePlayground.getState().setUi({ draft: "" });
});

describe("a message the server did not take", () => {
  it("goes back into the composer when the run is refused, with the reason shown", async () => {
    const refusal = { error: "model.settings.temperature: Too big: expected number to be <=2." };
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json(refusal, { status: 400 })),
    );
    await send("list the files");
    const state = usePlayground.getState();
    expect(state.draft).toBe("list the files");
    expect(state.failure).toBe(refusal.error);
    expect(state.status).toBe("failed");
  });

  it("goes back into the composer when the server cannot be reached", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    await send("read notes/todo.md");
    expect(usePlayground.getState().draft).toBe("read notes/todo.md");
    expect(usePlayground.getState().failure).toMatch(/connection to the server failed/);
  });

  it("does not replace what the user typed while it was being refused", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        usePlayground.getState().setUi({ draft: "a newer message" });
        return Response.json({ error: "conversation: a run is in progress" }, { status: 409 });
      }),
    );
    await send("the first message");
    expect(usePlayground.getState().draft).toBe("a newer message");
  });
});

describe("a message sent to a conversation deleted elsewhere", () => {
  it("moves the page to a new conversation, says why, and keeps the message", async () => {
    usePlayground.setState({ transcriptId: "gone" });
    window.history.replaceState(null, "", "/t/gone");
    const refusal = { error: 'transcriptId: no transcript "gone".' };
    const fetch = vi.fn(async () => Response.json(refusal, { status: 404 }));
    vi.stubGlobal("fetch", fetch);
    await send("read notes/todo.md");
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    const sent = JSON.parse(String(init.body)) as { transcriptId?: string };
    expect(sent.transcriptId).toBe("gone");
    const state = usePlayground.getState();
    expect(state.transcriptId).toBeNull();
    expect(window.location.pathname).toBe("/");
    expect(state.failure).toBeNull();
    expect(state.notice?.text).toMatch(/deleted elsewhere/);
    expect(state.draft).toBe("read notes/todo.md");
  });

  it("stays where it is when another 404 refuses the run (an unknown replay source, say)", async () => {
    usePlayground.setState({ transcriptId: "kept" });
    window.history.replaceState(null, "", "/t/kept");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ error: 'model.id: no transcript "x".' }, { status: 404 })),
    );
    await send("list the files");
    expect(usePlayground.getState().transcriptId).toBe("kept");
    expect(window.location.pathname).toBe("/t/kept");
  });
});
