#!/usr/bin/env python3
"""The Python anchor for bench/scan.sh: a straightforward reader of the same transcripts.

For every *.gz file under the folders given: decompress it (gzip), parse it with the standard
json module (json.loads per line for JSONL, one json.loads for a document), pull out each
agent's tool calls the simple way for its format, and run the same kind of loop over the
calls: a dict-based consecutive-repeat chain (repeat-tool-reminder's thresholds 3, 5, 8) and
a dict of per-call counts (dsh-brake's 6, then every 5). One JSON line per notice goes to
stdout, as `loopguard scan --format jsonl` does.

It is honest and simple, not a port of loopguard: arguments are compared as json.dumps with
sorted keys, not loopguard's canonical form, and there is no sequence or text detection.

    python3 bench/scan_python.py FOLDER... > notices.jsonl
"""
import gzip
import json
import os
import re
import sys

BASH_BLOCK = re.compile(r"```bash\s*\n(.*?)\n```", re.S)
THRESHOLDS = (3, 5, 8)
WARN, REWARN = 6, 5


def calls_of(doc_or_lines, jsonl):
    """Yields (agent, tool, args_key) for each tool call, in file order."""
    if jsonl:  # Claude Code (or any JSONL of message lines)
        for line in doc_or_lines:
            msg = line.get("message") if isinstance(line, dict) else None
            content = msg.get("content") if isinstance(msg, dict) else None
            if not isinstance(content, list):
                continue
            agent = line.get("agentId") or "main"
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    yield agent, block.get("name", ""), json.dumps(block.get("input"), sort_keys=True)
        return
    doc = doc_or_lines
    if isinstance(doc, dict) and "trajectory" in doc:  # SWE-agent, CodeR roles from the history
        roles = [h.get("agent", "main") for h in doc.get("history", []) if h.get("role") == "assistant"]
        for i, step in enumerate(doc["trajectory"]):
            action = (step.get("action") or "").strip()
            tool = action.split(None, 1)[0] if action else ""
            yield (roles[i] if i < len(roles) else "main"), tool, action
        return
    if isinstance(doc, dict) and "messages" in doc:  # mini-swe-agent: one bash block per reply
        for m in doc["messages"]:
            if m.get("role") != "assistant":
                continue
            text = m.get("content") if isinstance(m.get("content"), str) else ""
            found = BASH_BLOCK.search(text)
            command = found.group(1).strip() if found else ""
            yield "main", (command.split(None, 1)[0] if command else ""), command


def scan(path, out):
    with gzip.open(path, "rb") as f:
        data = f.read()
    jsonl = path.endswith(".jsonl.gz")
    if jsonl:
        parsed = [json.loads(line) for line in data.splitlines() if line.strip()]
    else:
        parsed = json.loads(data)
    chain = {}   # agent -> [last call key, consecutive count]
    counts = {}  # (agent, call key) -> [count, count at the last notice]
    index = {}   # agent -> calls so far
    for agent, tool, args in calls_of(parsed, jsonl):
        i = index.get(agent, -1) + 1
        index[agent] = i
        key = (tool, args)
        c = chain.get(agent)
        if c is not None and c[0] == key:
            c[1] += 1
        else:
            c = chain[agent] = [key, 1]
        if c[1] in THRESHOLDS:
            out.append({"file": path, "agent": agent, "call_index": i, "plugin": "repeat-tool-reminder",
                        "kind": "repeat", "summary": "%s × %d" % (tool, c[1])})
        e = counts.setdefault((agent, key), [0, 0])
        e[0] += 1
        if (e[1] == 0 and e[0] >= WARN) or (e[1] > 0 and e[0] >= e[1] + REWARN):
            e[1] = e[0]
            out.append({"file": path, "agent": agent, "call_index": i, "plugin": "dsh-brake",
                        "kind": "call", "summary": "%s × %d" % (tool, e[0])})
    return len(data)


def main():
    files = []
    for root in sys.argv[1:]:
        for dirpath, _, names in os.walk(root):
            files += [os.path.join(dirpath, n) for n in names if n.endswith(".gz")]
    files.sort()
    total = 0
    write = sys.stdout.write
    for path in files:
        out = []
        total += scan(path, out)
        for n in out:
            write(json.dumps(n, ensure_ascii=False) + "\n")
    print("python: %d files, %d bytes uncompressed" % (len(files), total), file=sys.stderr)


if __name__ == "__main__":
    main()
