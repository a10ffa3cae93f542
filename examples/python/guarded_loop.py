"""A hand-written tool loop guarded by `loopguard serve` (standard library only)."""
import json, os, urllib.request

URL = os.environ.get("LOOPGUARD_URL", "http://127.0.0.1:8417")
TOKEN = os.environ.get("LOOPGUARD_TOKEN", "")

def loopguard(path, events):
    body = "".join(json.dumps(e) + "\n" for e in events).encode()
    auth = {"Authorization": "Bearer " + TOKEN} if TOKEN else {}
    req = urllib.request.Request(URL + path, body, {"Content-Type": "application/x-ndjson", **auth})
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return [json.loads(line) for line in resp.read().splitlines() if line.strip()]
    except OSError as err:  # fail open: a guard never breaks the agent it guards
        print("loopguard unavailable, going on unguarded:", err)
        return []

def search(q):  # the tool
    print("tool ran: search", q); return "no results for " + q

messages = [{"role": "user", "content": "When was the release?"}]
for turn in range(1, 13):
    args = {"q": "release date"}  # a stuck model asks the same thing every turn
    call = {"type": "call", "agent": "py-agent-1", "tool": "search", "args": args}
    verdict = loopguard("/v1/check", [call])
    denied = verdict and verdict[0]["deny"]
    result = "Error: " + verdict[0]["reason"] if denied else search(**args)
    messages.append({"role": "tool", "content": result})
    call["result"] = {"error": bool(denied), "text": result}
    for notice in loopguard("/v1/events", [call]):
        print(f"turn {turn}: {notice['type']} {notice.get('summary', '')}")
        messages.append({"role": "user", "content": notice.get("text") or notice["reason"]})
