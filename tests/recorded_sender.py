"""Send recorded commands to a table service, as a second client (the table's buttons and tray would).

    python tests/recorded_sender.py --socket PATH < commands.jsonl

Up to ``WINDOW`` commands are on their way at a time (the service still takes them one after the
other, in order): a recorded game goes through about as fast as the table can run it, without a
round trip between two commands, and never far ahead of what the service has answered. Prints one
JSON line: how many were accepted, the last ``seq``, and the first refusal (the rest of a game makes
no sense after one).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.socket_client import TableClient  # noqa: E402

WINDOW = 8


def send_all(socket_path: Path, commands: list[dict]) -> dict:
    """Pipeline ``commands`` to the service; what came back (accepted count, last seq, error)."""
    client = TableClient(socket_path, timeout=120)
    try:
        lines = [json.dumps({"id": n + 1, "op": "command", "command": c}) + "\n"
                 for n, c in enumerate(commands)]
        sent, accepted, last_seq, error = 0, 0, -1, ""
        while accepted < len(commands) and not error:
            if sent < len(lines) and sent - accepted < WINDOW:
                client.sock.sendall("".join(lines[sent:accepted + WINDOW]).encode())
                sent = min(len(lines), accepted + WINDOW)
            message = client.read_message()
            if "event" in message:
                continue  # the snapshot pushed to every client: the reply carries the same
            if not message.get("ok"):
                error = f"command {message.get('id')} refused: {message.get('error')}"
                break
            accepted += 1
            last_seq = message["snapshot"]["seq"]
        return {"accepted": accepted, "last_seq": last_seq, "error": error}
    finally:
        client.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", type=Path, required=True)
    args = parser.parse_args()
    commands = [json.loads(line) for line in sys.stdin if line.strip()]
    result = send_all(args.socket, commands)
    print(json.dumps(result), flush=True)
    return 0 if not result["error"] else 1


if __name__ == "__main__":
    sys.exit(main())
