/**
 * Every xml example of seeds 001 and 003, split into the model's turns (the `<results>`
 * blocks in the seeds are written by the system, so they start the next turn).
 */
import { describe, expect, it } from "vitest";
import type { ProtocolEvent } from "./events";
import { parseInvariant, uncovered } from "./testing";

/** A compact, readable form of merged events: `think: …`, `call list {"path":"."}`, … */
function summary(events: readonly ProtocolEvent[]): string[] {
  return events.map((event) => {
    switch (event.type) {
      case "think":
      case "respond":
        return `${event.type}: ${event.content}`;
      case "call":
        return `call ${event.call.name} ${JSON.stringify(event.call.args)}`;
      case "error":
        return `error ${event.code}`;
      default:
        return event.type;
    }
  });
}

function turn(text: string): string[] {
  const events = parseInvariant("xml", text);
  expect(uncovered(text, events)).toEqual([]);
  return summary(events);
}

describe("the xml design examples", () => {
  it("simple response", () => {
    expect(
      turn("<respond>Python is a programming language created by Guido van Rossum.</respond>"),
    ).toEqual(["respond: Python is a programming language created by Guido van Rossum."]);
  });

  it("single tool call, then the answer as bare text", () => {
    const first = `<think>I should check what files exist first.</think>

<execute>
[{"name": "list", "args": {"path": "."}}]
</execute>`;
    expect(turn(first)).toEqual([
      "think: I should check what files exist first.",
      'call list {"path":"."}',
      "execute",
    ]);
    expect(turn("\n\nI found 3 files: main.py, config.json, README.md")).toEqual([
      "respond: I found 3 files: main.py, config.json, README.md",
    ]);
  });

  it("multiple tools in one batch", () => {
    const text = `<execute>
[
  {"name": "list", "args": {"path": "."}},
  {"name": "read", "args": {"file": "config.json"}}
]
</execute>`;
    expect(turn(text)).toEqual([
      'call list {"path":"."}',
      'call read {"file":"config.json"}',
      "execute",
    ]);
  });

  it("the whole transcript fed as one model turn flags the forged results", () => {
    const text = `<think>I should check what files exist first.</think>

<execute>
[{"name": "list", "args": {"path": "."}}]
</execute>

<results>
[{"tool": "list", "status": "success", "content": ["main.py", "config.json", "README.md"]}]
</results>

I found 3 files: main.py, config.json, README.md`;
    expect(turn(text)).toEqual([
      "think: I should check what files exist first.",
      'call list {"path":"."}',
      "execute",
      "error model_wrote_results",
      "respond: I found 3 files: main.py, config.json, README.md",
    ]);
  });
});

describe("the tool-execution design examples", () => {
  it("think, single tool", () => {
    const text = `<think>reasoning about the problem, what steps to take</think>
<execute>
[
  {"name": "read", "args": {"file": "config.json"}}
]
</execute>`;
    expect(turn(text)).toEqual([
      "think: reasoning about the problem, what steps to take",
      'call read {"file":"config.json"}',
      "execute",
    ]);
  });

  it("batched read, write, read keep their order", () => {
    const text = `<execute>
[
  {"name": "read", "args": {"file": "a.txt"}},
  {"name": "write", "args": {"file": "b.txt", "content": "updated"}},
  {"name": "read", "args": {"file": "b.txt"}}
]
</execute>`;
    expect(turn(text)).toEqual([
      'call read {"file":"a.txt"}',
      'call write {"file":"b.txt","content":"updated"}',
      'call read {"file":"b.txt"}',
      "execute",
    ]);
  });

  it("HTML, closing tags and mixed quotes inside args are content", () => {
    const html = `<execute>
[
  {"name": "write", "args": {"file": "index.html", "content": "<html><body>Hello</body></html>"}}
]
</execute>`;
    expect(turn(html)).toEqual([
      'call write {"file":"index.html","content":"<html><body>Hello</body></html>"}',
      "execute",
    ]);
    const closing = `<execute>
[
  {"name": "write", "args": {"content": "Hello </write> world </execute> too"}}
]
</execute>`;
    expect(turn(closing)).toEqual([
      'call write {"content":"Hello </write> world </execute> too"}',
      "execute",
    ]);
    const quotes = `<execute>
[
  {"name": "shell", "args": {"cmd": "echo \\"hello\\" && echo 'world'"}}
]
</execute>`;
    expect(turn(quotes)).toEqual([
      `call shell {"cmd":"echo \\"hello\\" && echo 'world'"}`,
      "execute",
    ]);
  });

  it("the complete example: three model turns", () => {
    expect(
      turn(`<think>Need to read config, update it, verify the change</think>

<execute>
[
  {"name": "read", "args": {"file": "config.json"}}
]
</execute>`),
    ).toEqual([
      "think: Need to read config, update it, verify the change",
      'call read {"file":"config.json"}',
      "execute",
    ]);
    expect(
      turn(`<think>API is old.com, need to update to new.com</think>

<execute>
[
  {"name": "write", "args": {"file": "config.json", "content": "{\\"api\\": \\"new.com\\"}"}},
  {"name": "read", "args": {"file": "config.json"}}
]
</execute>`),
    ).toEqual([
      "think: API is old.com, need to update to new.com",
      'call write {"file":"config.json","content":"{\\"api\\": \\"new.com\\"}"}',
      'call read {"file":"config.json"}',
      "execute",
    ]);
    expect(
      turn(
        "Configuration updated successfully. API endpoint changed from old.com to new.com and verified.",
      ),
    ).toEqual([
      "respond: Configuration updated successfully. API endpoint changed from old.com to new.com and verified.",
    ]);
  });
});
