"""mjai-sim http relay: the mjai.app-compatible bridge between a referee and one bot.

Usage: python3 -u relay.py SEAT [--bot-dir DIR] [--zip PATH] [--host H] [--port N]

Starts `python3 -u bot.py SEAT` in DIR (default: the current directory, /workspace in the
image), after unpacking PATH into DIR when --zip is given, then serves HTTP on H:N
(default 0.0.0.0:3000):

  GET  /  -> 200 "OK" while the bot runs; 503 "bot exited with code C" once it has exited.
  POST /  -> the body (one mjai batch, a JSON array) is written to the bot's stdin as one line;
             the reply is the bot's next stdout line (200, text/plain). When the bot exits
             before answering: 503 with the reason; an answer over 1 MiB: 502.

Requests are answered one at a time (the bot is one conversation). Stdlib only.
"""

import argparse
import os
import subprocess
import sys
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY = 16 * 1024 * 1024
MAX_ANSWER = 1024 * 1024


class Bot:
    """The bot process and the lock that keeps one batch in flight."""

    def __init__(self, seat, bot_dir):
        self.lock = threading.Lock()
        self.proc = subprocess.Popen(
            [sys.executable, "-u", "bot.py", str(seat)],
            cwd=bot_dir,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,
        )

    def exit_reason(self):
        code = self.proc.poll()
        return None if code is None else f"bot exited with code {code}"

    def ask(self, line):
        """Returns (status, text): the bot's answer line, or why there is none."""
        with self.lock:
            reason = self.exit_reason()
            if reason:
                return 503, reason
            try:
                self.proc.stdin.write(line.rstrip(b"\r\n") + b"\n")
                self.proc.stdin.flush()
            except (BrokenPipeError, OSError):
                self.proc.wait()
                return 503, self.exit_reason()
            # The line and its newline (\r\n at most): a line of exactly MAX_ANSWER bytes
            # passes, as over stdio; a longer one is cut here and refused.
            answer = self.proc.stdout.readline(MAX_ANSWER + 2)
            if len(answer.rstrip(b"\r\n")) > MAX_ANSWER:
                return 502, f"bot answer longer than {MAX_ANSWER} bytes"
            if not answer.endswith(b"\n"):
                try:
                    self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    return 503, "bot closed its stdout"
                return 503, self.exit_reason()
            return 200, answer.rstrip(b"\r\n").decode("utf-8", "replace")


def make_handler(bot):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Send each answer at once: with Nagle's algorithm on, a keep-alive answer waits
        # for the host's delayed ACK (about 40 ms per line).
        disable_nagle_algorithm = True

        def reply(self, status, text):
            body = text.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            reason = bot.exit_reason()
            self.reply(503 if reason else 200, reason or "OK")

        def do_POST(self):
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                self.reply(411, "Content-Length required")
                return
            if length < 0 or length > MAX_BODY:
                self.reply(413, f"batch longer than {MAX_BODY} bytes")
                return
            status, text = bot.ask(self.rfile.read(length))
            if status == 200:
                sys.stdout.write(text + "\n")
                sys.stdout.flush()
            self.reply(status, text)

        def log_message(self, format, *args):
            return

    return Handler


def main():
    parser = argparse.ArgumentParser(description="mjai.app-compatible http relay")
    parser.add_argument("seat", type=int, choices=range(4))
    parser.add_argument("--bot-dir", default=os.getcwd())
    parser.add_argument("--zip", dest="zip_path")
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=3000)
    args = parser.parse_args()

    if args.zip_path:
        with zipfile.ZipFile(args.zip_path) as z:
            z.extractall(args.bot_dir)
    if not os.path.isfile(os.path.join(args.bot_dir, "bot.py")):
        sys.exit(f"relay: no bot.py in {args.bot_dir}: the submission must hold bot.py at its root")

    bot = Bot(args.seat, args.bot_dir)
    server = ThreadingHTTPServer((args.host, args.port), make_handler(bot))
    server.daemon_threads = True
    try:
        server.serve_forever()
    finally:
        bot.proc.kill()


if __name__ == "__main__":
    main()
