/**
 * What a new conversation's workspace starts with: something real to list, read, search,
 * fix and run. `src/app.py` has a deliberate bug (its average skips the first expense) that
 * `notes/todo.md` hints at, so "find and fix the bug" works as a first prompt.
 */
export const SAMPLE_FILES: Readonly<Record<string, string>> = {
  "README.md": `# Your workspace

This directory belongs to one conversation. The agent's tools (\`list\`, \`read\`, \`write\`,
\`edit\`, \`search\`) can see and change the files here, and nothing outside it.

- \`notes/todo.md\`: a short to-do list
- \`src/app.py\`: a small expense report script
- \`config.json\`: the script's settings and data

Try: "Find the bug in src/app.py and fix it."
`,
  "notes/todo.md": `# To do

- [ ] The expense report's average is wrong: for 12, 30 and 48 it prints 26.00, not 30.00.
- [ ] Flag expenses over the threshold from config.json.
- [x] Move the expenses out of the script into config.json.
`,
  "src/app.py": `"""Print a short report of the expenses listed in config.json."""

import json
from pathlib import Path


def load_config(path="config.json"):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def average(amounts):
    total = 0
    for amount in amounts[1:]:
        total += amount
    return total / len(amounts)


def main():
    config = load_config()
    amounts = [expense["amount"] for expense in config["expenses"]]
    currency = config["currency"]
    print(f"{len(amounts)} expenses, total {sum(amounts):.2f} {currency}")
    print(f"average {average(amounts):.2f} {currency}")


if __name__ == "__main__":
    main()
`,
  "config.json": `{
  "currency": "EUR",
  "threshold": 40,
  "expenses": [
    { "name": "train ticket", "amount": 12 },
    { "name": "hotel night", "amount": 30 },
    { "name": "conference dinner", "amount": 48 }
  ]
}
`,
};
